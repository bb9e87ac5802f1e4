//! GNU Radio's adaptive equalizers: the algorithm object ([`AdaptiveAlgorithm`]: LMS, NLMS,
//! CMA), the training state they share, the adaptive filter, and the two blocks
//! ([`LinearEqualizer`], [`DecisionFeedbackEqualizer`]).

mod adaptive_algorithm;
mod decision_feedback_equalizer;
mod kernel;
mod linear_equalizer;
mod training;

pub use adaptive_algorithm::{AdaptiveAlgorithm, AdaptiveAlgorithmError, AlgorithmKind};
pub use decision_feedback_equalizer::DecisionFeedbackEqualizer;
pub use linear_equalizer::LinearEqualizer;
