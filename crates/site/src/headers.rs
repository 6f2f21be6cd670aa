//! What every response says about its body: the content type by extension, and the security
//! headers the page is written for (its Content-Security-Policy, as `web/index.html` declares
//! it, plus what only a header can set). Pure.

use crate::offline::csp_meta;

/// The page's policy when its `index.html` declares none.
pub const PAGE_POLICY: &str = "default-src 'self'; script-src 'self' 'wasm-unsafe-eval'; \
    worker-src 'self' blob:; style-src 'self'; img-src 'self' data: blob:; \
    connect-src 'self' https: http://localhost:* http://127.0.0.1:*; \
    object-src 'none'; base-uri 'none'; form-action 'none'; frame-src 'none'";

/// The policy `index` (the page's `index.html`) declares in its CSP meta, else [`PAGE_POLICY`].
pub fn page_policy(index: Option<&str>) -> String {
    index
        .and_then(csp_meta)
        .unwrap_or_else(|| PAGE_POLICY.to_owned())
}

/// The headers every response carries: the page's `policy` (plus `frame-ancestors`, which only
/// a header can set), no sniffing, no referrer, and revalidation on every load.
pub fn security_headers(policy: &str) -> [(&'static str, String); 4] {
    [
        (
            "content-security-policy",
            format!("{policy}; frame-ancestors 'self'"),
        ),
        ("x-content-type-options", "nosniff".to_owned()),
        ("referrer-policy", "no-referrer".to_owned()),
        ("cache-control", "no-cache".to_owned()),
    ]
}

/// The `content-type` of a file, by its extension.
pub fn content_type(path: &str) -> &'static str {
    let extension = path
        .rsplit('/')
        .next()
        .and_then(|name| name.rsplit_once('.'))
        .map(|(_, extension)| extension.to_ascii_lowercase());
    match extension.as_deref() {
        Some("html") => "text/html; charset=utf-8",
        Some("js" | "mjs") => "text/javascript; charset=utf-8",
        Some("wasm") => "application/wasm",
        Some("css") => "text/css; charset=utf-8",
        Some("json" | "map") => "application/json",
        Some("jsonl") => "application/jsonl",
        Some("csv") => "text/csv; charset=utf-8",
        Some("png") => "image/png",
        Some("svg") => "image/svg+xml",
        Some("ico") => "image/x-icon",
        Some("gz") => "application/gzip",
        Some("txt" | "md" | "ts") => "text/plain; charset=utf-8",
        _ => "application/octet-stream",
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn content_types_follow_the_extension() {
        let cases = [
            ("index.html", "text/html; charset=utf-8"),
            ("app.js", "text/javascript; charset=utf-8"),
            ("x.mjs", "text/javascript; charset=utf-8"),
            ("pkg/agenteval_wasm_bg.wasm", "application/wasm"),
            ("styles.css", "text/css; charset=utf-8"),
            ("examples/m365-demo.json", "application/json"),
            ("examples/foundry-demo.JSONL", "application/jsonl"),
            ("a.csv", "text/csv; charset=utf-8"),
            ("logo.png", "image/png"),
            ("logo.svg", "image/svg+xml"),
            ("pkg/wordnet-meteor.bin.gz", "application/gzip"),
            ("lib.v2/README", "application/octet-stream"),
            ("blob", "application/octet-stream"),
        ];
        for (path, expected) in cases {
            assert_eq!(content_type(path), expected, "{path}");
        }
    }

    #[test]
    fn the_policy_is_the_one_index_html_declares() {
        let index = "<meta http-equiv=\"Content-Security-Policy\" content=\"default-src 'self'\">";
        assert_eq!(page_policy(Some(index)), "default-src 'self'");
        assert_eq!(page_policy(Some("<title>x</title>")), PAGE_POLICY);
        assert_eq!(page_policy(None), PAGE_POLICY);
    }

    #[test]
    fn the_real_page_declares_the_policy_the_header_carries() {
        let index = include_str!("../../../web/index.html");
        let policy = page_policy(Some(index));
        assert!(index.contains(&format!("content=\"{policy}\"")));
        assert!(
            policy.contains("script-src 'self' 'wasm-unsafe-eval'"),
            "{policy}"
        );
    }

    #[test]
    fn every_response_forbids_sniffing_referrers_framing_and_stale_copies() {
        let headers = security_headers("default-src 'self'");
        assert_eq!(
            headers,
            [
                (
                    "content-security-policy",
                    "default-src 'self'; frame-ancestors 'self'".to_owned()
                ),
                ("x-content-type-options", "nosniff".to_owned()),
                ("referrer-policy", "no-referrer".to_owned()),
                ("cache-control", "no-cache".to_owned()),
            ]
        );
    }
}
