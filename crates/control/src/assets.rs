//! The page's files, compiled into the binary. Only these names are served: a request for any
//! other path is a 404, so nothing outside them can be read (there is no file system access).
//!
//! Chart.js 3.9.1 (MIT; `assets/chart.LICENSE` says where it comes from) draws the plots.

/// `(name, content type, bytes)` of every bundled file.
const ASSETS: &[(&str, &str, &str)] = &[
    (
        "index.html",
        "text/html; charset=utf-8",
        include_str!("../assets/index.html"),
    ),
    (
        "app.js",
        "text/javascript; charset=utf-8",
        include_str!("../assets/app.js"),
    ),
    (
        "style.css",
        "text/css; charset=utf-8",
        include_str!("../assets/style.css"),
    ),
    (
        "chart.min.js",
        "text/javascript; charset=utf-8",
        include_str!("../assets/chart.min.js"),
    ),
];

/// The bundled file `name` (exact match) and its content type.
pub(crate) fn asset(name: &str) -> Option<(&'static str, &'static str)> {
    ASSETS
        .iter()
        .find(|(n, _, _)| *n == name)
        .map(|(_, t, b)| (*t, *b))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn only_bundled_names_resolve() {
        assert!(asset("app.js").is_some());
        assert!(asset("../Cargo.toml").is_none());
        assert!(asset("/etc/passwd").is_none());
        assert!(asset("").is_none());
    }
}
