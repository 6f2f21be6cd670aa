//! `cargo xtask dist`: the page as one self-contained HTML file that works opened from
//! `file://` with no network. The file's assembly (what is inlined, the strict policy of hashes,
//! the data elements) is the product's, `agenteval_site::offline`; what stays here is the build
//! step it needs: bundling the page's stylesheet, module script and engine worker with esbuild
//! (from the test package's npm dependencies), and reading `web/`, `pkg/` and `examples/`.
//!
//! It writes only the output file and esbuild's scratch files beside it; building `pkg/` is the
//! caller's.

use std::path::{Path, PathBuf};

use agenteval_site::offline::{assemble, json_for_script, Data, Reference, ENGINE, EXAMPLE, WASM};

use crate::run::{project_root, Step};

/// Builds the file at `out` from `web/`, `pkg/` and `examples/` with the `esbuild` binary, and
/// returns its size in bytes.
///
/// # Errors
/// A missing input, a failed bundle, a bundle that keeps an import or cannot sit inside an
/// inline element, or markup in `web/index.html` the file cannot carry.
pub fn write(out: &Path, esbuild: &Path) -> Result<u64, String> {
    let root = project_root();
    let scratch = out.with_extension("build");
    std::fs::create_dir_all(&scratch)
        .map_err(|error| format!("cannot create {}: {error}", scratch.display()))?;
    let bundler = Bundler {
        esbuild,
        root: &root,
        web: root.join("web"),
        scratch: &scratch,
    };
    let index = read_text(&bundler.web.join("index.html"))?;
    let engine = bundler.bundle(&bundler.web.join("engine-worker.js"), Bundle::Classic)?;
    let pkg = root.join("pkg");
    let data = [
        Data::new(ENGINE, engine),
        Data::base64(WASM, &read_bytes(&pkg.join("agenteval_wasm_bg.wasm"))?),
        Data::new(
            EXAMPLE,
            json_for_script(&read_text(&root.join("examples/m365-demo.json"))?),
        ),
    ];
    let html = assemble(&index, |reference| bundler.inline(reference), &data)?;
    if let Some(folder) = out.parent() {
        std::fs::create_dir_all(folder)
            .map_err(|error| format!("cannot create {}: {error}", folder.display()))?;
    }
    std::fs::write(out, &html)
        .map_err(|error| format!("cannot write {}: {error}", out.display()))?;
    Ok(html.len() as u64)
}

/// Runs esbuild over files of the page.
struct Bundler<'a> {
    esbuild: &'a Path,
    root: &'a Path,
    web: PathBuf,
    scratch: &'a Path,
}

impl Bundler<'_> {
    /// The inline text for a file `web/index.html` refers to.
    fn inline(&self, reference: &Reference) -> Result<String, String> {
        let (href, kind) = match reference {
            Reference::Stylesheet(href) => (href, Bundle::Stylesheet),
            Reference::ModuleScript(src) => (src, Bundle::Module),
        };
        let path = self.local(href)?;
        self.bundle(&path, kind)
    }

    /// The file `href` names, relative to `web/`, when it lies inside the project.
    fn local(&self, href: &str) -> Result<PathBuf, String> {
        let path = href.split(['?', '#']).next().unwrap_or_default();
        let resolved = self
            .web
            .join(path)
            .canonicalize()
            .map_err(|error| format!("web/index.html refers to `{href}`: {error}"))?;
        let root = self
            .root
            .canonicalize()
            .unwrap_or_else(|_| self.root.into());
        if resolved.starts_with(root) {
            Ok(resolved)
        } else {
            Err(format!(
                "web/index.html refers to `{href}`, outside the project"
            ))
        }
    }

    /// `entry` bundled by esbuild with every import inlined.
    fn bundle(&self, entry: &Path, kind: Bundle) -> Result<String, String> {
        let stem = entry
            .file_stem()
            .map(|stem| stem.to_string_lossy().into_owned())
            .unwrap_or_default();
        let extension = if kind == Bundle::Stylesheet {
            "css"
        } else {
            "js"
        };
        let output = self.scratch.join(format!("{stem}.{extension}"));
        let meta = self.scratch.join(format!("{stem}.{extension}.meta.json"));
        let step = Step::new(self.esbuild)
            .arg(entry)
            .args(["--bundle", "--minify", "--log-level=warning"])
            .arg(format!("--outfile={}", output.display()))
            .arg(format!("--metafile={}", meta.display()));
        let scripts = [
            "--target=es2022",
            "--platform=browser",
            // wasm-bindgen's glue declares its imports twice under the same key.
            "--log-override:duplicate-object-key=silent",
        ];
        match kind {
            Bundle::Stylesheet => step.args(["--loader:.png=dataurl", "--loader:.svg=dataurl"]),
            Bundle::Module => step.args(scripts).arg("--format=esm"),
            // NOTE: only the glue's default module URL reads `import.meta.url`; the page always
            // hands the worker the module's bytes.
            Bundle::Classic => step
                .args(scripts)
                .args(["--format=iife", "--log-override:empty-import-meta=silent"]),
        }
        .run()?;
        let imports = external_imports(&read_text(&meta)?)?;
        if !imports.is_empty() {
            return Err(format!(
                "the bundle of {} still imports {}; the file has nothing to load them from",
                entry.display(),
                imports.join(", ")
            ));
        }
        read_text(&output)
    }
}

/// What esbuild makes of an entry file.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Bundle {
    /// One stylesheet, local `@import`s inlined and images as data URLs.
    Stylesheet,
    /// An ES module (the page's inline `<script type="module">`).
    Module,
    /// A classic script (the worker: Chromium refuses module workers from `blob:` URLs in a page
    /// opened from `file://`, and runs classic ones).
    Classic,
}

/// The imports left in esbuild's outputs, as its metafile lists them (a bundle without code
/// splitting keeps only external ones).
fn external_imports(metafile: &str) -> Result<Vec<String>, String> {
    let meta: serde_json::Value = serde_json::from_str(metafile)
        .map_err(|error| format!("esbuild's metafile is not JSON: {error}"))?;
    let outputs = meta
        .get("outputs")
        .and_then(serde_json::Value::as_object)
        .ok_or("esbuild's metafile has no outputs")?;
    Ok(outputs
        .values()
        .filter_map(|output| output.get("imports")?.as_array())
        .flatten()
        .map(|import| {
            import
                .get("path")
                .and_then(serde_json::Value::as_str)
                .unwrap_or("?")
                .to_owned()
        })
        .collect())
}

fn read_text(path: &Path) -> Result<String, String> {
    std::fs::read_to_string(path)
        .map_err(|error| format!("cannot read {}: {error}", path.display()))
}

fn read_bytes(path: &Path) -> Result<Vec<u8>, String> {
    std::fs::read(path).map_err(|error| format!("cannot read {}: {error}", path.display()))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn external_imports_come_from_the_metafile() {
        let meta = r#"{"inputs":{},"outputs":{"a.js":{"imports":[{"path":"https://x/y.js","kind":"import-statement","external":true}]},"b.js":{"imports":[]}}}"#;
        assert_eq!(
            external_imports(meta),
            Ok(vec!["https://x/y.js".to_owned()])
        );
        assert_eq!(
            external_imports(r#"{"outputs":{"a.js":{"imports":[]}}}"#),
            Ok(vec![])
        );
        assert!(external_imports("{}").is_err());
    }
}
