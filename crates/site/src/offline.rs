//! The offline page's assembly: `web/index.html` made into one self-contained HTML file that
//! works opened from `file://` with no network. The markup is kept; the stylesheet becomes an
//! inline `<style>`, the module script an inline `<script type="module">` (the caller supplies
//! both as bundled text), and the engine worker's bundle, the WebAssembly module (base64) and
//! the example dataset ride along in script elements that never run, which the page reads in
//! file mode. A strict policy with the hashes of the inline style and script replaces the page's
//! CSP meta.
//!
//! Pure: it reads and writes nothing. Bundling the page's modules (esbuild, a build step) and
//! reading the files are the caller's (`cargo xtask dist`).

use base64::Engine as _;
use sha2::{Digest, Sha256};

/// The element of the engine worker's bundle (a classic script, started from a `blob:` URL).
pub const ENGINE: (&str, &str) = ("agenteval-engine", "text/plain");
/// The element of the scoring module, base64.
pub const WASM: (&str, &str) = ("agenteval-wasm", "application/base64");
/// The element of the built-in example dataset.
pub const EXAMPLE: (&str, &str) = ("agenteval-example", "application/json");

/// JSON text that means the same and can sit inside a `<script>` element: `<` only ever
/// appears inside JSON strings, where `<\/` and `\u003c!` spell the same characters.
pub fn json_for_script(json: &str) -> String {
    json.replace("</", "<\\/").replace("<!", "\\u003c!")
}

/// A file `web/index.html` refers to that the file carries inline.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Reference {
    /// `<link rel="stylesheet" href>`.
    Stylesheet(String),
    /// `<script type="module" src>`.
    ModuleScript(String),
}

/// A non-executing `<script type id>` element holding data for the page.
#[derive(Debug, Clone)]
pub struct Data {
    id: &'static str,
    kind: &'static str,
    text: String,
}

impl Data {
    /// The element `(id, type)` (one of [`ENGINE`], [`WASM`], [`EXAMPLE`])
    /// holding `text`.
    pub fn new((id, kind): (&'static str, &'static str), text: String) -> Self {
        Data { id, kind, text }
    }

    /// The element `(id, type)` holding `bytes` in base64.
    pub fn base64((id, kind): (&'static str, &'static str), bytes: &[u8]) -> Self {
        Data::new(
            (id, kind),
            base64::engine::general_purpose::STANDARD.encode(bytes),
        )
    }
}

/// The file's HTML: `index` with its CSP meta replaced by the strict file policy, each
/// stylesheet link and module script replaced by its inline text (`inline` supplies it), and the
/// `data` elements before `</body>`.
///
/// # Errors
/// When `index` has no CSP meta, has markup that the file cannot carry (a classic or inline
/// script, an inline style, another local link or `src`, an element with a data id), or when an
/// inline text contains what would end its element early.
pub fn assemble(
    index: &str,
    mut inline: impl FnMut(&Reference) -> Result<String, String>,
    data: &[Data],
) -> Result<String, String> {
    let mut replacements: Vec<(usize, usize, String)> = Vec::new();
    let mut policy_slot = None;
    let mut scripts = Vec::new();
    let mut styles = Vec::new();
    for tag in tags(index) {
        if let Some(id) = tag.attribute("id") {
            if data.iter().any(|block| block.id == id) {
                return Err(format!(
                    "web/index.html already has an element with id `{id}`"
                ));
            }
        }
        match tag.name.as_str() {
            "meta"
                if tag
                    .attribute("http-equiv")
                    .is_some_and(|value| value.eq_ignore_ascii_case("content-security-policy")) =>
            {
                if policy_slot.is_some() {
                    return Err("web/index.html has two CSP metas".into());
                }
                policy_slot = Some((
                    replacements.len(),
                    connect_sources(tag.attribute("content").unwrap_or_default()),
                ));
                replacements.push((tag.start, tag.end, String::new()));
            }
            "link" => {
                let rel = tag
                    .attribute("rel")
                    .unwrap_or_default()
                    .to_ascii_lowercase();
                let rels: Vec<&str> = rel.split_ascii_whitespace().collect();
                let href = tag.attribute("href").unwrap_or_default();
                if rels.contains(&"stylesheet") {
                    let css = inline(&Reference::Stylesheet(href.to_owned()))?;
                    fits_in_element(&css, "style", href)?;
                    styles.push(hash(&css));
                    replacements.push((tag.start, tag.end, format!("<style>{css}</style>")));
                } else if rels.contains(&"modulepreload") {
                    replacements.push((tag.start, tag.end, String::new()));
                } else if is_local(href) {
                    return Err(format!(
                        "web/index.html links `{href}` (rel=\"{rel}\"); the file inlines only \
                         stylesheets"
                    ));
                }
            }
            "script" => {
                let module = tag
                    .attribute("type")
                    .is_some_and(|kind| kind.eq_ignore_ascii_case("module"));
                match tag.attribute("src") {
                    Some(src) if module => {
                        let code = inline(&Reference::ModuleScript(src.to_owned()))?;
                        fits_in_element(&code, "script", src)?;
                        scripts.push(hash(&code));
                        replacements.push((
                            tag.start,
                            tag.close_end,
                            format!("<script type=\"module\">{code}</script>"),
                        ));
                    }
                    Some(src) => {
                        return Err(format!(
                            "web/index.html loads `{src}` as a classic script; the file inlines \
                             module scripts only"
                        ))
                    }
                    None if executable(tag.attribute("type")) => {
                        return Err(
                            "web/index.html has an inline script, which the page's policy \
                             blocks; move it to a module"
                                .into(),
                        )
                    }
                    None => {}
                }
            }
            "style" => {
                return Err(
                    "web/index.html has an inline <style>, which the page's policy blocks; \
                     move it to styles.css"
                        .into(),
                )
            }
            name => {
                if let Some(src) = tag.attribute("src").filter(|src| is_local(src)) {
                    return Err(format!(
                        "web/index.html's <{name}> loads `{src}`, which the file cannot reach"
                    ));
                }
            }
        }
    }
    let (slot, connect) =
        policy_slot.ok_or("web/index.html has no Content-Security-Policy meta")?;
    if let Some(replacement) = replacements.get_mut(slot) {
        replacement.2 = format!(
            "<meta http-equiv=\"Content-Security-Policy\" content=\"{}\">",
            file_policy(&scripts, &styles, &connect)
        );
    }
    let mut blocks = String::new();
    for block in data {
        fits_in_element(&block.text, "script", block.id)?;
        blocks.push_str(&format!(
            "<script type=\"{}\" id=\"{}\">{}</script>\n",
            block.kind, block.id, block.text
        ));
    }
    let body_end = index
        .to_ascii_lowercase()
        .rfind("</body")
        .unwrap_or(index.len());
    replacements.push((body_end, body_end, blocks));
    let mut html =
        String::with_capacity(index.len() + replacements.iter().map(|r| r.2.len()).sum::<usize>());
    let mut copied = 0;
    for (start, end, text) in replacements {
        html.push_str(index.get(copied..start).unwrap_or_default());
        html.push_str(&text);
        copied = end;
    }
    html.push_str(index.get(copied..).unwrap_or_default());
    Ok(html)
}

/// The policy a page's CSP meta declares, if it has one.
pub fn csp_meta(html: &str) -> Option<String> {
    tags(html)
        .into_iter()
        .find(|tag| {
            tag.name == "meta"
                && tag
                    .attribute("http-equiv")
                    .is_some_and(|value| value.eq_ignore_ascii_case("content-security-policy"))
        })
        .and_then(|tag| tag.attribute("content").map(str::to_owned))
}

/// The `connect-src` sources of the page's `policy` that mean the same from a file (all but
/// `'self'`), or `'none'`.
fn connect_sources(policy: &str) -> String {
    let sources: Vec<&str> = policy
        .split(';')
        .map(str::split_ascii_whitespace)
        .find_map(|mut directive| {
            directive
                .next()
                .filter(|name| name.eq_ignore_ascii_case("connect-src"))
                .map(|_| directive.filter(|source| *source != "'self'").collect())
        })
        .unwrap_or_default();
    if sources.is_empty() {
        "'none'".to_owned()
    } else {
        sources.join(" ")
    }
}

/// The file's policy: nothing but the listed inline scripts and styles, the modules'
/// compilation, the worker from a blob, blob and data images, and the `connect` sources (the
/// page's judges).
pub fn file_policy(scripts: &[String], styles: &[String], connect: &str) -> String {
    let sources = |hashes: &[String]| {
        if hashes.is_empty() {
            "'none'".to_owned()
        } else {
            hashes.join(" ")
        }
    };
    format!(
        "default-src 'none'; script-src {} 'wasm-unsafe-eval'; worker-src blob:; style-src {}; \
         img-src data: blob:; connect-src {connect}; object-src 'none'; base-uri 'none'; \
         form-action 'none'",
        sources(scripts),
        sources(styles)
    )
}

/// The CSP source that allows exactly `text` inline: `'sha256-<base64 of its SHA-256>'`.
pub fn hash(text: &str) -> String {
    let digest = Sha256::digest(text.as_bytes());
    format!(
        "'sha256-{}'",
        base64::engine::general_purpose::STANDARD.encode(digest)
    )
}

/// Fails when `text` inside `<element>` would end it early or make the parser skip its end tag
/// (`</element`, or `<!--` which can hide it), naming `source`.
fn fits_in_element(text: &str, element: &str, source: &str) -> Result<(), String> {
    let lower = text.to_ascii_lowercase();
    for marker in [format!("</{element}"), "<!--".to_owned()] {
        if lower.contains(&marker) {
            return Err(format!(
                "`{source}` contains `{marker}`, which cannot sit inside an inline <{element}>"
            ));
        }
    }
    Ok(())
}

/// Whether a `<script type>` value makes the browser run the element.
fn executable(kind: Option<&str>) -> bool {
    let Some(kind) = kind.map(|kind| kind.trim().to_ascii_lowercase()) else {
        return true;
    };
    kind.is_empty()
        || kind == "module"
        || kind.ends_with("/javascript")
        || kind.ends_with("/ecmascript")
        || kind == "text/jscript"
}

/// Whether `url` names a file next to the page (no scheme, no host, not just a fragment).
fn is_local(url: &str) -> bool {
    let url = url.trim();
    let scheme = url
        .split(['/', '?', '#'])
        .next()
        .is_some_and(|head| head.contains(':'));
    !url.is_empty() && !url.starts_with('#') && !url.starts_with("//") && !scheme
}

/// A start tag of the markup.
#[derive(Debug, Clone, PartialEq)]
struct Tag {
    /// Lower case.
    name: String,
    /// Names in lower case; values as written, without quotes.
    attributes: Vec<(String, String)>,
    /// Where `<` is.
    start: usize,
    /// Just after the tag's `>`.
    end: usize,
    /// Just after the matching end tag of a `script` or `style` (else `end`).
    close_end: usize,
}

impl Tag {
    fn attribute(&self, name: &str) -> Option<&str> {
        self.attributes
            .iter()
            .find(|(field, _)| field == name)
            .map(|(_, value)| value.as_str())
    }
}

/// The start tags of `html`, in order, skipping comments, doctypes, end tags and the content of
/// `script` and `style` elements (text, as the HTML parser reads it).
fn tags(html: &str) -> Vec<Tag> {
    let lower = html.to_ascii_lowercase();
    let bytes = html.as_bytes();
    let find = |from: usize, what: &str| lower.get(from..)?.find(what).map(|at| from + at);
    let mut tags = Vec::new();
    let mut at = 0;
    while let Some(start) = find(at, "<") {
        let rest = lower.get(start..).unwrap_or_default();
        if rest.starts_with("<!--") {
            at = find(start + 4, "-->").map_or(html.len(), |end| end + 3);
            continue;
        }
        if rest.starts_with("<!") || rest.starts_with("</") || rest.starts_with("<?") {
            at = find(start, ">").map_or(html.len(), |end| end + 1);
            continue;
        }
        let name_len = rest
            .bytes()
            .skip(1)
            .take_while(|byte| byte.is_ascii_alphanumeric() || *byte == b'-')
            .count();
        if name_len == 0 {
            at = start + 1;
            continue;
        }
        let name = lower
            .get(start + 1..start + 1 + name_len)
            .unwrap_or_default();
        let mut position = start + 1 + name_len;
        let mut attributes = Vec::new();
        loop {
            while bytes
                .get(position)
                .is_some_and(|byte| byte.is_ascii_whitespace() || *byte == b'/')
            {
                position += 1;
            }
            match bytes.get(position) {
                None => break,
                Some(b'>') => {
                    position += 1;
                    break;
                }
                Some(_) => {}
            }
            let name_start = position;
            while bytes.get(position).is_some_and(|byte| {
                !byte.is_ascii_whitespace() && !matches!(byte, b'=' | b'>' | b'/')
            }) {
                position += 1;
            }
            let attribute = lower
                .get(name_start..position)
                .unwrap_or_default()
                .to_owned();
            let mut after = position;
            while bytes.get(after).is_some_and(u8::is_ascii_whitespace) {
                after += 1;
            }
            let mut value = String::new();
            if bytes.get(after) == Some(&b'=') {
                position = after + 1;
                while bytes.get(position).is_some_and(u8::is_ascii_whitespace) {
                    position += 1;
                }
                let value_start;
                match bytes.get(position) {
                    Some(&quote) if quote == b'"' || quote == b'\'' => {
                        value_start = position + 1;
                        position = html
                            .get(value_start..)
                            .and_then(|rest| rest.find(char::from(quote)))
                            .map_or(html.len(), |offset| value_start + offset);
                        value = html
                            .get(value_start..position)
                            .unwrap_or_default()
                            .to_owned();
                        position = (position + 1).min(html.len());
                    }
                    _ => {
                        value_start = position;
                        while bytes
                            .get(position)
                            .is_some_and(|byte| !byte.is_ascii_whitespace() && *byte != b'>')
                        {
                            position += 1;
                        }
                        value = html
                            .get(value_start..position)
                            .unwrap_or_default()
                            .to_owned();
                    }
                }
            }
            if !attribute.is_empty() {
                attributes.push((attribute, value));
            } else {
                position += 1;
            }
        }
        let end = position;
        let close_end = if name == "script" || name == "style" {
            find(end, &format!("</{name}"))
                .and_then(|close| find(close, ">"))
                .map_or(html.len(), |close| close + 1)
        } else {
            end
        };
        tags.push(Tag {
            name: name.to_owned(),
            attributes,
            start,
            end,
            close_end,
        });
        at = close_end;
    }
    tags
}

#[cfg(test)]
mod tests {
    use super::*;

    const INDEX: &str = r#"<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta http-equiv="Content-Security-Policy" content="default-src 'self'; connect-src 'self' https: http://127.0.0.1:*">
<!-- <script src="commented.js"></script> -->
<title>agenteval</title>
<link rel="stylesheet" href="styles.css">
<script type="module" src="app.js"></script>
</head>
<body>
<agenteval-app data-x='a > b'></agenteval-app>
<noscript>needs JavaScript</noscript>
</body>
</html>
"#;

    fn inline(reference: &Reference) -> Result<String, String> {
        Ok(match reference {
            Reference::Stylesheet(href) => format!("/* {href} */body{{color:red}}"),
            Reference::ModuleScript(src) => format!("console.log({src:?});"),
        })
    }

    fn data() -> Vec<Data> {
        vec![
            Data::new(ENGINE, "self.onmessage=()=>{};".into()),
            Data::new(WASM, "AGFzbQ==".into()),
            Data::new(EXAMPLE, json_for_script(r#"{"a":"</script><!--"}"#)),
        ]
    }

    #[test]
    fn hashes_are_the_csp_source_of_the_exact_text() {
        assert_eq!(
            hash("alert('Hello, world.');"),
            "'sha256-qznLcsROx4GACP2dm0UCKCzCG+HiZ1guq6ZZDob/Tng='"
        );
    }

    #[test]
    fn start_tags_are_found_outside_comments_and_raw_text() {
        let found = tags(INDEX);
        let names: Vec<&str> = found.iter().map(|tag| tag.name.as_str()).collect();
        assert_eq!(
            names,
            [
                "html",
                "head",
                "meta",
                "meta",
                "title",
                "link",
                "script",
                "body",
                "agenteval-app",
                "noscript"
            ]
        );
        let script = &found[6];
        assert_eq!(script.attribute("src"), Some("app.js"));
        assert_eq!(
            INDEX.get(script.start..script.close_end),
            Some(r#"<script type="module" src="app.js"></script>"#)
        );
        assert_eq!(found[8].attribute("data-x"), Some("a > b"));
        assert_eq!(
            csp_meta(INDEX).as_deref(),
            Some("default-src 'self'; connect-src 'self' https: http://127.0.0.1:*")
        );
        assert_eq!(csp_meta("<meta charset=utf-8>"), None);
        let unquoted = tags("<link rel=stylesheet href=a.css><p hidden>");
        assert_eq!(unquoted[0].attribute("rel"), Some("stylesheet"));
        assert_eq!(unquoted[0].attribute("href"), Some("a.css"));
        assert_eq!(unquoted[1].attribute("hidden"), Some(""));
    }

    #[test]
    fn the_page_is_inlined_under_a_policy_of_its_hashes() {
        let html = assemble(INDEX, inline, &data()).unwrap();
        let style = "/* styles.css */body{color:red}";
        let script = "console.log(\"app.js\");";
        let policy = format!(
            "default-src 'none'; script-src {} 'wasm-unsafe-eval'; worker-src blob:; style-src {}; \
             img-src data: blob:; connect-src https: http://127.0.0.1:*; object-src 'none'; \
             base-uri 'none'; form-action 'none'",
            hash(script),
            hash(style)
        );
        assert!(html.contains(&format!(
            "<meta http-equiv=\"Content-Security-Policy\" content=\"{policy}\">"
        )));
        assert!(html.contains(&format!("<style>{style}</style>")));
        assert!(html.contains(&format!("<script type=\"module\">{script}</script>")));
        assert!(!html.contains("href=\"styles.css\""));
        assert!(!html.contains("src=\"app.js\""));
        assert!(!html.contains("default-src 'self'"));
        assert!(html.contains("<agenteval-app data-x='a > b'></agenteval-app>\n<noscript>"));
        assert!(html.contains(
            "<script type=\"text/plain\" id=\"agenteval-engine\">self.onmessage=()=>{};</script>\n\
             <script type=\"application/base64\" id=\"agenteval-wasm\">AGFzbQ==</script>\n\
             <script type=\"application/json\" id=\"agenteval-example\">"
        ));
        assert!(html.ends_with("</script>\n</body>\n</html>\n"));
    }

    #[test]
    fn json_keeps_its_value_inside_a_script() {
        let json = r#"{"a":"</script><!-- x --></SCRIPT>","b":[1,"<p>"]}"#;
        let escaped = json_for_script(json);
        assert!(fits_in_element(&escaped, "script", "x").is_ok());
        let before: serde_json::Value = serde_json::from_str(json).unwrap();
        let after: serde_json::Value = serde_json::from_str(&escaped).unwrap();
        assert_eq!(before, after);
    }

    #[test]
    fn what_the_file_cannot_carry_is_refused_by_name() {
        let refused = |index: &str| assemble(index, inline, &data()).err().unwrap_or_default();
        let meta = r#"<meta http-equiv="content-security-policy" content="x">"#;
        assert!(refused("<html><body></body></html>").contains("no Content-Security-Policy"));
        assert!(refused(&format!("{meta}<script>alert(1)</script>")).contains("inline script"));
        assert!(refused(&format!("{meta}<script src=a.js></script>")).contains("classic"));
        assert!(refused(&format!("{meta}<style>p{{}}</style>")).contains("inline <style>"));
        assert!(refused(&format!("{meta}<img src=logo.png>")).contains("logo.png"));
        assert!(refused(&format!("{meta}<link rel=icon href=a.ico>")).contains("a.ico"));
        assert!(refused(&format!("{meta}<div id=agenteval-wasm></div>")).contains("agenteval-wasm"));
        assert!(refused(&format!("{meta}{meta}")).contains("two CSP"));
        let allowed = format!(
            "{meta}<img src=\"data:image/png;base64,AA\"><a href=\"https://x\">x</a>\
             <script type=\"application/json\" id=\"other\">{{}}</script>"
        );
        assert!(assemble(&allowed, inline, &data()).is_ok());
        let closing = assemble(
            &format!("{meta}<script type=module src=app.js></script>"),
            |_| Ok("let a = '</SCRIPT>';".into()),
            &data(),
        );
        assert!(closing.err().unwrap_or_default().contains("`</script`"));
        let hiding = assemble(
            &format!("{meta}<link rel=stylesheet href=a.css>"),
            |_| Ok("a::after{content:'<!--'}".into()),
            &data(),
        );
        assert!(hiding.err().unwrap_or_default().contains("`<!--`"));
    }

    #[test]
    fn the_file_connects_where_the_page_does_except_itself() {
        assert_eq!(
            connect_sources("default-src 'self'; Connect-Src 'self' https: http://localhost:*"),
            "https: http://localhost:*"
        );
        assert_eq!(connect_sources("default-src 'self'"), "'none'");
        assert_eq!(connect_sources("connect-src 'self'"), "'none'");
    }

    #[test]
    fn local_urls_are_those_without_scheme_or_host() {
        for url in ["a.png", "./a.png", "../pkg/a.js", "/a.png", "lib/x:y.js"] {
            assert!(is_local(url), "{url}");
        }
        for url in [
            "",
            "#x",
            "//cdn/a.js",
            "https://x/a.js",
            "data:image/png;base64,AA",
            "blob:x",
        ] {
            assert!(!is_local(url), "{url}");
        }
    }
}
