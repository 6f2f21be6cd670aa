//! Compiles the web page into the binary for `agenteval view`: `web/`, the npm package `pkg/`
//! and `examples/` (the page's built-in example), when the package has been built
//! (`pkg/agenteval_wasm_bg.wasm` exists). It writes `$OUT_DIR/page.rs`, the list of
//! `(key, include_bytes!)` pairs, empty without a package, and sets `cfg(agenteval_page)` when
//! the list holds the page. `AGENTEVAL_VIEW_WITHOUT_PAGE=1` builds without it even when built.

use std::fmt::Write as _;
use std::path::{Path, PathBuf};

const FOLDERS: [&str; 3] = ["web", "pkg", "examples"];

fn main() {
    println!("cargo::rustc-check-cfg=cfg(agenteval_page)");
    println!("cargo:rerun-if-env-changed=AGENTEVAL_VIEW_WITHOUT_PAGE");
    let manifest = PathBuf::from(std::env::var_os("CARGO_MANIFEST_DIR").unwrap_or_default());
    let root = manifest.join("../..");
    for folder in FOLDERS {
        println!("cargo:rerun-if-changed={}", root.join(folder).display());
    }
    let wanted =
        std::env::var_os("AGENTEVAL_VIEW_WITHOUT_PAGE").is_none_or(|value| value.is_empty());
    let built = root.join("pkg/agenteval_wasm_bg.wasm").is_file();
    let mut files = Vec::new();
    if wanted && built {
        for folder in FOLDERS {
            collect(&root.join(folder), folder, &mut files);
        }
        println!("cargo:rustc-cfg=agenteval_page");
    }
    files.sort();
    let mut list =
        String::from("/// The page's files, `(key, bytes)`; empty when built without it.\n");
    list.push_str("pub static FILES: &[(&str, &[u8])] = &[\n");
    for (key, path) in &files {
        let _ = writeln!(
            list,
            "    ({key:?}, include_bytes!({:?})),",
            path.display().to_string()
        );
    }
    list.push_str("];\n");
    let out = PathBuf::from(std::env::var_os("OUT_DIR").unwrap_or_default()).join("page.rs");
    if let Err(error) = std::fs::write(&out, list) {
        println!("cargo:warning=cannot write {}: {error}", out.display());
        std::process::exit(1);
    }
}

/// Every file below `dir` but hidden ones, keyed `prefix/relative/path`.
fn collect(dir: &Path, prefix: &str, files: &mut Vec<(String, PathBuf)>) {
    let Ok(entries) = std::fs::read_dir(dir) else {
        return;
    };
    for entry in entries.flatten() {
        let name = entry.file_name().to_string_lossy().into_owned();
        if name.starts_with('.') {
            continue;
        }
        let path = entry.path();
        let key = format!("{prefix}/{name}");
        if path.is_dir() {
            collect(&path, &key, files);
        } else if path.is_file() {
            let absolute = path.canonicalize().unwrap_or(path);
            files.push((key, absolute));
        }
    }
}
