use radioflow_runtime::prelude::*;
use radioflow_runtime::registry::library_block;
use std::path::PathBuf;

#[library_block(id = "b", summary = "A block.")]
#[param(file: PathBuf, doc = "the file")]
struct B {
    file: PathBuf,
}

#[block]
impl B {
    fn new(file: PathBuf) -> Self {
        Self { file }
    }
}

fn main() {}
