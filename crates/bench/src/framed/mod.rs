//! Cassagne et al. 2023 on radioflow's framed execution (`radioflow-framed`): [`tasks`] measures
//! the cost of the DSEL per task (Table 1 / Fig. 5, MB1-MB4), [`pipeline`] a framed pipeline
//! with copy and copy-less adaptors and a duplicated heavy stage (Fig. 11).

pub mod pipeline;
pub mod tasks;
