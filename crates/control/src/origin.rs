//! Which web pages may use the control port. A browser lets any page it shows send requests to
//! `127.0.0.1`, so besides the token (not required on loopback) the port checks who asks:
//! - **Host** (every request): the name the request was sent to must be an IP address,
//!   `localhost` or the host of an allowed origin. A page of another site that has its own
//!   name resolve to 127.0.0.1 after it loaded (DNS rebinding) is same-origin with the port in
//!   the browser's eyes, but its requests carry that name.
//! - **Writes** (anything but GET, HEAD, OPTIONS): tower-http's [`CsrfLayer`] refuses those a
//!   browser says come from another site (`Sec-Fetch-Site`, else `Origin` against `Host`),
//!   unless from an allowed origin; and they must be JSON (checked in `api.rs`), which no HTML
//!   form, and no script of another origin without the port's consent (a CORS preflight),
//!   can send.
//! - **WebSockets**: the handshake is a GET, which browsers send from any page and the CSRF
//!   layer lets pass, so its `Origin` is checked here the same way.
//!
//! Allowed origins (`ControlConfig::allowed_origins`, `--allow-origin`) also get CORS answers
//! (tower-http's [`CorsLayer`]), so a page served elsewhere (a dashboard, a reverse proxy's
//! name) can use the API with the token in an `Authorization` header. No cookies are used.

use crate::error::ApiError;
use crate::error::ServeError;
use axum::http::header::{AUTHORIZATION, CONTENT_TYPE, HOST, ORIGIN, UPGRADE};
use axum::http::uri::Authority;
use axum::http::{HeaderValue, Method, Request};
use axum::response::IntoResponse;
use std::net::IpAddr;
use std::time::Duration;
use tower_http::cors::{AllowOrigin, CorsLayer};
use tower_http::csrf::{CsrfLayer, ProtectionError};

/// The allowed origins, as browsers write them (`scheme://host[:port]`, lower case, no
/// default port), their host names, and the CSRF layer trusting them.
#[derive(Clone, Debug, Default)]
pub(crate) struct Origins {
    origins: Vec<String>,
    hosts: Vec<String>,
    csrf: CsrfLayer,
}

impl Origins {
    /// Checks and normalizes each allowed origin.
    pub(crate) fn parse(list: &[String]) -> Result<Self, ServeError> {
        let mut parsed = Self::default();
        for origin in list {
            let bad = |reason: &str| ServeError::BadOrigin {
                origin: origin.clone(),
                reason: reason.to_owned(),
            };
            let uri: axum::http::Uri = origin
                .parse()
                .map_err(|_| bad("not an origin such as http://NAME:PORT"))?;
            let scheme = uri
                .scheme_str()
                .map(str::to_ascii_lowercase)
                .filter(|s| s == "http" || s == "https")
                .ok_or_else(|| bad("the scheme must be http:// or https://"))?;
            let authority = uri
                .authority()
                .ok_or_else(|| bad("no host (write it as http://NAME:PORT)"))?;
            if authority.as_str().contains('@')
                || !matches!(uri.path(), "" | "/")
                || uri.query().is_some()
            {
                return Err(bad("an origin is scheme://host[:port], nothing more"));
            }
            let host = authority.host().to_ascii_lowercase();
            let default_port = if scheme == "http" { 80 } else { 443 };
            let canonical = match authority.port_u16() {
                Some(p) if p != default_port => format!("{scheme}://{host}:{p}"),
                _ => format!("{scheme}://{host}"),
            };
            parsed.csrf = std::mem::take(&mut parsed.csrf)
                .add_trusted_origin(&canonical)
                .map_err(|e| bad(&e.to_string()))?;
            parsed.hosts.push(host);
            parsed.origins.push(canonical);
        }
        Ok(parsed)
    }

    /// Whether `host` (a `Host` header or a request target's authority) names this port.
    fn host_allowed(&self, host: &str) -> bool {
        let Ok(authority) = host.parse::<Authority>() else {
            return false;
        };
        let name = authority.host();
        let bare = name.trim_start_matches('[').trim_end_matches(']');
        bare.parse::<IpAddr>().is_ok()
            || bare.eq_ignore_ascii_case("localhost")
            || self.hosts.iter().any(|h| h.eq_ignore_ascii_case(name))
    }

    /// Whether a page of `origin` may open a WebSocket to `host`: the page's own origin
    /// (compared as tower-http's CSRF layer does: its host and port against `Host`), or an
    /// allowed one.
    fn origin_allowed(&self, origin: &str, host: Option<&str>) -> bool {
        if self.origins.iter().any(|o| o == origin) {
            return true;
        }
        let authority = origin
            .parse::<axum::http::Uri>()
            .ok()
            .filter(|u| matches!(u.scheme_str(), Some("http" | "https")))
            .and_then(|u| u.authority().cloned());
        matches!((authority, host), (Some(a), Some(h)) if a.as_str().eq_ignore_ascii_case(h))
    }

    /// The refusal of a request whose `Host` (or target) or, for a WebSocket, `Origin` is
    /// not this port's, naming it; `None` when it may go on.
    pub(crate) fn screen<B>(&self, request: &Request<B>) -> Option<ApiError> {
        let host = request
            .headers()
            .get(HOST)
            .map(|h| h.to_str().unwrap_or("(not text)"));
        let target = request.uri().authority().map(Authority::as_str);
        for name in [host, target].into_iter().flatten() {
            if !self.host_allowed(name) {
                return Some(ApiError::Forbidden(format!(
                    "Host '{name}' does not name this control port: it answers to its IP \
                     addresses and localhost, so that a page of another site cannot reach it \
                     under its own name (DNS rebinding); allow another name by allowing its \
                     origin (--allow-origin http://NAME:PORT)"
                )));
            }
        }
        if request.headers().contains_key(UPGRADE)
            && let Some(origin) = request.headers().get(ORIGIN)
        {
            let origin = origin.to_str().unwrap_or("(not text)");
            if !self.origin_allowed(origin, host) {
                return Some(ApiError::Forbidden(format!(
                    "WebSocket from origin '{origin}' refused: only this control port's \
                         own page, or an allowed origin (--allow-origin), may open one"
                )));
            }
        }
        None
    }

    /// Refuses writes a browser sends from another origin (an allowed one passes).
    pub(crate) fn csrf_layer(&self) -> CsrfLayer<fn(ProtectionError) -> axum::response::Response> {
        let refuse: fn(ProtectionError) -> axum::response::Response = |_| {
            ApiError::Forbidden(
                "cross-origin write refused: a page of another origin cannot steer this graph \
                 (allow an origin with --allow-origin)"
                    .into(),
            )
            .into_response()
        };
        self.csrf.clone().with_rejection_response(refuse)
    }

    /// CORS answers for the allowed origins (none for others: a preflight from another site
    /// gets no permission, so its browser does not send the request).
    pub(crate) fn cors_layer(&self) -> CorsLayer {
        let origins = self
            .origins
            .iter()
            .filter_map(|o| HeaderValue::from_str(o).ok());
        CorsLayer::new()
            .allow_origin(AllowOrigin::list(origins))
            .allow_methods([Method::GET, Method::POST, Method::PUT])
            .allow_headers([AUTHORIZATION, CONTENT_TYPE])
            .max_age(Duration::from_secs(600))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn allowed_origins_are_normalized_and_bad_ones_named() {
        let o = Origins::parse(&[
            "HTTP://Dash.Example:80".into(),
            "https://radio.example:8443/".into(),
        ])
        .unwrap();
        assert_eq!(
            o.origins,
            ["http://dash.example", "https://radio.example:8443"]
        );
        for bad in [
            "dash.example",
            "ftp://dash.example",
            "http://dash.example/path",
            "http://u@dash.example",
            "",
        ] {
            let e = Origins::parse(&[bad.into()]).unwrap_err().to_string();
            assert!(e.contains(&format!("'{bad}'")), "{e}");
        }
    }

    #[test]
    fn hosts_are_addresses_localhost_or_allowed_names() {
        let o = Origins::parse(&["http://dash.example:8080".into()]).unwrap();
        for good in [
            "127.0.0.1:1337",
            "10.1.2.3",
            "[::1]:1337",
            "localhost:1337",
            "dash.example:1337",
        ] {
            assert!(o.host_allowed(good), "{good}");
        }
        for bad in [
            "evil.example:1337",
            "127.0.0.1.evil.example",
            "localhost.evil.example",
            "",
            "[::1",
        ] {
            assert!(!o.host_allowed(bad), "{bad}");
        }
        assert!(o.origin_allowed("http://127.0.0.1:1337", Some("127.0.0.1:1337")));
        assert!(o.origin_allowed("http://dash.example:8080", Some("127.0.0.1:1")));
        assert!(!o.origin_allowed("http://127.0.0.1:1", Some("127.0.0.1:1337")));
        assert!(!o.origin_allowed("null", Some("127.0.0.1:1337")));
        assert!(!o.origin_allowed("http://evil.example", None));
    }
}
