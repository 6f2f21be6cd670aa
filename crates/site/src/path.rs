//! Request targets to files: which of the site's folders a URL path names and the file inside it,
//! refusing anything that is not a plain path (traversal, encoded separators, hidden files).
//! Pure: it reads no file.

/// The folders the page's files come from.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Mount {
    /// `web/`, at `/`.
    Web,
    /// `pkg/`, at `/pkg/`.
    Pkg,
    /// `examples/`, at `/examples/`.
    Examples,
    /// The file the server was asked to open, at `/opened/NAME`.
    Opened,
}

impl Mount {
    /// The folder's name, the first segment of a file's key in [`crate::Files`].
    pub fn folder(self) -> &'static str {
        match self {
            Mount::Web => "web",
            Mount::Pkg => "pkg",
            Mount::Examples => "examples",
            Mount::Opened => "opened",
        }
    }
}

/// The path of a request target, without its query or fragment.
pub fn target_path(target: &str) -> &str {
    target.split(['?', '#']).next().unwrap_or_default()
}

/// The folder and relative file path (segments joined by `/`) a request target maps to, or
/// `None` for anything that is not a plain path inside one: not starting with `/`, a bad or
/// control-character percent-encoding, a backslash or colon, an empty, `.`, `..` or hidden
/// segment (also when encoded). `/` and a path ending in `/` map to that folder's `index.html`.
pub fn locate(target: &str) -> Option<(Mount, String)> {
    let path = target_path(target).strip_prefix('/')?;
    let decoded = percent_decode(path)?;
    let mut segments: Vec<&str> = decoded.split('/').collect();
    if segments.last() == Some(&"") {
        segments.pop();
        segments.push("index.html");
    }
    let mount = match segments.first() {
        Some(&"pkg") if segments.len() > 1 => Mount::Pkg,
        Some(&"examples") if segments.len() > 1 => Mount::Examples,
        Some(&"opened") if segments.len() > 1 => Mount::Opened,
        _ => Mount::Web,
    };
    if mount != Mount::Web {
        segments.remove(0);
    }
    let plain = |segment: &&str| {
        !segment.is_empty()
            && !segment.starts_with('.')
            && !segment.contains(['\\', ':'])
            && !segment.chars().any(char::is_control)
    };
    segments
        .iter()
        .all(plain)
        .then(|| (mount, segments.join("/")))
}

/// `text` with `%XX` escapes decoded, or `None` when an escape is malformed or the result is
/// not UTF-8.
pub fn percent_decode(text: &str) -> Option<String> {
    let bytes = text.as_bytes();
    let mut decoded = Vec::with_capacity(bytes.len());
    let mut index = 0;
    while let Some(&byte) = bytes.get(index) {
        if byte == b'%' {
            let hex = std::str::from_utf8(bytes.get(index + 1..index + 3)?).ok()?;
            decoded.push(u8::from_str_radix(hex, 16).ok()?);
            index += 3;
        } else {
            decoded.push(byte);
            index += 1;
        }
    }
    String::from_utf8(decoded).ok()
}

/// `text` with every byte but RFC 3986's unreserved characters percent-encoded, fit for one path
/// segment or one query value.
pub fn percent_encode(text: &str) -> String {
    let mut encoded = String::with_capacity(text.len());
    for byte in text.bytes() {
        if byte.is_ascii_alphanumeric() || matches!(byte, b'-' | b'.' | b'_' | b'~') {
            encoded.push(char::from(byte));
        } else {
            encoded.push_str(&format!("%{byte:02X}"));
        }
    }
    encoded
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn paths_map_to_the_folders() {
        let cases = [
            ("/", Mount::Web, "index.html"),
            ("/?x=1", Mount::Web, "index.html"),
            ("/app.js", Mount::Web, "app.js"),
            ("/lib/engine.js?v=2#top", Mount::Web, "lib/engine.js"),
            ("/lib/", Mount::Web, "lib/index.html"),
            (
                "/pkg/agenteval_wasm_bg.wasm",
                Mount::Pkg,
                "agenteval_wasm_bg.wasm",
            ),
            (
                "/pkg/snippets/a/js/drive.js",
                Mount::Pkg,
                "snippets/a/js/drive.js",
            ),
            (
                "/examples/m365-demo.json",
                Mount::Examples,
                "m365-demo.json",
            ),
            ("/examples/my%20data.json", Mount::Examples, "my data.json"),
            ("/opened/scored.json", Mount::Opened, "scored.json"),
            ("/pkg", Mount::Web, "pkg"),
            ("/opened", Mount::Web, "opened"),
        ];
        for (target, mount, path) in cases {
            assert_eq!(
                locate(target),
                Some((mount, path.to_owned())),
                "target {target}"
            );
        }
    }

    #[test]
    fn traversal_and_odd_targets_are_refused() {
        for target in [
            "",
            "*",
            "app.js",
            "http://127.0.0.1/app.js",
            "/../Cargo.toml",
            "/pkg/../Cargo.toml",
            "/lib/../../Cargo.toml",
            "/%2e%2e/Cargo.toml",
            "/%2E%2E%2FCargo.toml",
            "/..%2fCargo.toml",
            "/pkg/%2e%2e/%2e%2e/etc/passwd",
            "/examples/.%2e/xtask/src/main.rs",
            "/opened/../secret.txt",
            "//etc/passwd",
            "/%2fetc/passwd",
            "/lib//engine.js",
            "/..\\Cargo.toml",
            "/%5c..%5cCargo.toml",
            "/C:/Windows/win.ini",
            "/.git/config",
            "/pkg/.npmrc",
            "/./app.js",
            "/%",
            "/%2",
            "/%zz",
            "/app.js%00.html",
            "/%ff",
        ] {
            assert_eq!(locate(target), None, "target {target:?} accepted");
        }
    }

    #[test]
    fn encoding_keeps_unreserved_characters_and_round_trips() {
        assert_eq!(percent_encode("m365-demo.json"), "m365-demo.json");
        assert_eq!(
            percent_encode("my data/é?.json"),
            "my%20data%2F%C3%A9%3F.json"
        );
        for text in ["my data/é?.json", "a%b&c=d#e", ""] {
            assert_eq!(percent_decode(&percent_encode(text)).as_deref(), Some(text));
        }
    }
}
