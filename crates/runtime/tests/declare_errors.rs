//! Misused block declarations fail to compile with a message that says what is wrong
//! (`tests/declare_errors/*.rs`, expected messages in the `.stderr` files beside them).
//! Regenerate the expectations after changing a message: `TRYBUILD=overwrite cargo test -p
//! radioflow-runtime --test declare_errors`.

#[test]
#[cfg_attr(miri, ignore)]
fn misused_declarations_are_compile_errors() {
    let t = trybuild::TestCases::new();
    t.compile_fail("tests/declare_errors/*.rs");
}
