//! The WebAssembly package: building `pkg/` from `crates/wasm`, installing the tools it needs
//! (the wasm32 target, the exact matching `wasm-bindgen-cli`, Chromium and chromedriver, the test
//! package's npm dependencies), and running its test layers.

use std::path::{Path, PathBuf};
use std::process::Command;

use crate::run::{cargo, ensure_cargo_tool, project_root, Step};

/// Must equal the `wasm-bindgen` version pinned in the workspace `Cargo.toml`.
pub const WASM_BINDGEN_VERSION: &str = "0.2.130";

const TARGET: &str = "wasm32-unknown-unknown";
const PROFILE: &str = "wasm-release";

/// Files in `pkg/` written by hand (committed); everything else there is generated.
const HAND_WRITTEN: &[&str] = &[
    "package.json",
    "README.md",
    "index.js",
    "node.js",
    "api.js",
    "load.js",
    "load.d.ts",
    "protocol.js",
    "protocol.d.ts",
    "client.js",
    "client.d.ts",
    "worker.js",
    "index.d.ts",
];

/// Chromium and its driver, as Debian installs them.
pub const CHROMIUM: &str = "/usr/bin/chromium";
/// The chromedriver wasm-bindgen-test drives Chromium with.
pub const CHROMEDRIVER: &str = "/usr/bin/chromedriver";

/// The cargo target directory (honours `CARGO_TARGET_DIR`).
pub fn target_dir() -> PathBuf {
    std::env::var_os("CARGO_TARGET_DIR")
        .map(PathBuf::from)
        .map(|dir| {
            if dir.is_absolute() {
                dir
            } else {
                project_root().join(dir)
            }
        })
        .unwrap_or_else(|| project_root().join("target"))
}

/// The package folder.
pub fn pkg_dir() -> PathBuf {
    project_root().join("pkg")
}

/// The JS test package (playwright-core, typescript, binaryen, vite).
pub fn js_tests_dir() -> PathBuf {
    project_root().join("tests/js")
}

/// esbuild, from the test package's dependencies.
pub fn esbuild() -> PathBuf {
    js_tests_dir().join("node_modules/.bin/esbuild")
}

/// Installs the wasm32 target when missing.
pub fn ensure_target() -> Result<(), String> {
    let installed = Command::new("rustup")
        .args(["target", "list", "--installed"])
        .output()
        .is_ok_and(|output| String::from_utf8_lossy(&output.stdout).contains(TARGET));
    if installed {
        return Ok(());
    }
    Step::new("rustup").args(["target", "add", TARGET]).run()
}

/// Installs the `wasm-bindgen` CLI (and its test runner) matching the pinned library version.
pub fn ensure_bindgen() -> Result<(), String> {
    ensure_cargo_tool(
        "wasm-bindgen",
        "wasm-bindgen-cli",
        Some(WASM_BINDGEN_VERSION),
    )
}

/// Installs Chromium and chromedriver from Debian when missing.
pub fn ensure_chromium() -> Result<(), String> {
    if Path::new(CHROMIUM).exists() && Path::new(CHROMEDRIVER).exists() {
        return Ok(());
    }
    Step::new("apt-get").args(["update", "-qq"]).run()?;
    Step::new("apt-get")
        .args(["install", "-y", "-qq", "chromium", "chromium-driver"])
        .env("DEBIAN_FRONTEND", "noninteractive")
        .run()
}

/// Installs the JS test package's dependencies (from its lock file) when missing.
pub fn ensure_npm_packages() -> Result<(), String> {
    let dir = js_tests_dir();
    if dir.join("node_modules/.package-lock.json").exists() {
        return Ok(());
    }
    Step::new("npm")
        .args(["ci", "--no-audit", "--no-fund"])
        .dir(&dir)
        .run()
}

/// Builds `pkg/` when its module is missing or older than a source of the crates (`src/`, `js/`,
/// `Cargo.toml`, `build.rs`); the page (`cargo xtask serve`, `cargo xtask dist`) needs it.
///
/// # Errors
/// When the build fails.
pub fn ensure_package() -> Result<(), String> {
    let pkg = pkg_dir();
    let built = modified(&pkg.join("agenteval_wasm_bg.wasm"));
    let crates = project_root().join("crates");
    let mut newest = None;
    for entry in std::fs::read_dir(&crates)
        .map_err(|error| format!("cannot read {}: {error}", crates.display()))?
        .flatten()
    {
        for source in ["src", "js", "Cargo.toml", "build.rs"] {
            newest = newest.max(newest_under(&entry.path().join(source)));
        }
    }
    match built {
        Some(built) if newest.is_none_or(|newest| newest <= built) => Ok(()),
        _ => build().map(|_| ()),
    }
}

fn modified(path: &Path) -> Option<std::time::SystemTime> {
    std::fs::metadata(path)
        .and_then(|meta| meta.modified())
        .ok()
}

/// The latest modification time of `path` or of any file below it.
fn newest_under(path: &Path) -> Option<std::time::SystemTime> {
    let mut newest = modified(path);
    if path.is_dir() {
        for entry in std::fs::read_dir(path).into_iter().flatten().flatten() {
            newest = newest.max(newest_under(&entry.path()));
        }
    }
    newest
}

/// Builds `pkg/`: compiles the crate for wasm32, generates the bindings and declarations, and
/// shrinks the module with `wasm-opt` (binaryen's npm package, installed with the test package's
/// dependencies). Returns the `.wasm` path.
pub fn build() -> Result<PathBuf, String> {
    build_with(&[])
}

/// [`build`] with the crate's `features` (the test build adds `crash-test`): the package's one
/// module, `agenteval_wasm`.
fn build_with(features: &[&str]) -> Result<PathBuf, String> {
    ensure_target()?;
    ensure_bindgen()?;
    ensure_npm_packages()?;
    let pkg = pkg_dir();
    remove_generated(&pkg)?;
    let main = build_module(features, "agenteval_wasm")?;
    let size = std::fs::metadata(&main).map(|meta| meta.len()).unwrap_or(0);
    eprintln!("pkg/agenteval_wasm_bg.wasm: {size} bytes");
    copy_wordnet(&pkg)?;
    Ok(main)
}

/// METEOR's WordNet table and its licence, beside the module: the package fetches the table
/// before the first run that scores METEOR.
fn copy_wordnet(pkg: &Path) -> Result<(), String> {
    let data = project_root().join("crates/core/data");
    for (from, to) in [
        ("wordnet-meteor.bin.gz", "wordnet-meteor.bin.gz"),
        ("WORDNET-LICENSE", "WORDNET-LICENSE"),
    ] {
        std::fs::copy(data.join(from), pkg.join(to))
            .map_err(|error| format!("cannot copy {from} into {}: {error}", pkg.display()))?;
    }
    Ok(())
}

/// Compiles the crate with `features`, generates its bindings into `pkg/` as `name`, and
/// shrinks the module; returns the `.wasm` path.
fn build_module(features: &[&str], name: &str) -> Result<PathBuf, String> {
    cargo([
        "build",
        "-p",
        "agenteval-wasm",
        "--target",
        TARGET,
        "--profile",
        PROFILE,
        "--features",
        &features.join(","),
    ])
    .run()?;
    let compiled = target_dir()
        .join(TARGET)
        .join(PROFILE)
        .join("agenteval_wasm.wasm");
    let pkg = pkg_dir();
    Step::new("wasm-bindgen")
        .args(["--target", "web", "--out-name", name])
        .arg("--experimental-reset-state-function")
        .arg("--out-dir")
        .arg(&pkg)
        .arg(&compiled)
        .run()?;
    let wasm = pkg.join(format!("{name}_bg.wasm"));
    match wasm_opt() {
        Some(program) => Step::new(program)
            .args([
                "-O3",
                "--strip-producers",
                "--strip-target-features",
                "--enable-bulk-memory",
                "--enable-nontrapping-float-to-int",
                "--enable-sign-ext",
                "--enable-mutable-globals",
                "--enable-reference-types",
                "--enable-multivalue",
                "--enable-simd",
            ])
            .arg(&wasm)
            .arg("-o")
            .arg(&wasm)
            .run()?,
        None => {
            eprintln!("xtask: no wasm-opt {MIN_BINARYEN}+ found; the module is left unoptimised")
        }
    }
    Ok(wasm)
}

/// Oldest binaryen whose `wasm-opt` keeps wasm-bindgen's externref table intact (Debian
/// bookworm's 108 breaks it).
const MIN_BINARYEN: u32 = 116;

/// `wasm-opt` from the binaryen npm package of the test package, else from the PATH when recent
/// enough.
fn wasm_opt() -> Option<PathBuf> {
    let npm = js_tests_dir().join("node_modules/.bin/wasm-opt");
    if npm.exists() {
        return Some(npm);
    }
    let output = Command::new("wasm-opt").arg("--version").output().ok()?;
    let text = String::from_utf8_lossy(&output.stdout);
    let version: u32 = text
        .split(|ch: char| !ch.is_ascii_digit())
        .find(|part| !part.is_empty())?
        .parse()
        .ok()?;
    (output.status.success() && version >= MIN_BINARYEN).then(|| PathBuf::from("wasm-opt"))
}

fn remove_generated(pkg: &Path) -> Result<(), String> {
    let entries = std::fs::read_dir(pkg)
        .map_err(|error| format!("cannot read {}: {error}", pkg.display()))?;
    for entry in entries.flatten() {
        let name = entry.file_name().to_string_lossy().into_owned();
        if HAND_WRITTEN.contains(&name.as_str()) {
            continue;
        }
        let path = entry.path();
        let removed = if path.is_dir() {
            std::fs::remove_dir_all(&path)
        } else {
            std::fs::remove_file(&path)
        };
        removed.map_err(|error| format!("cannot remove {}: {error}", path.display()))?;
    }
    Ok(())
}

/// Every test layer of the package: wasm-bindgen-test in Node and headless Chromium, then the
/// `node --test` suites (Node, a Chromium page and a Web Worker via playwright-core, the
/// TypeScript usage check, the comparison with the native CLI, and the page's offline file from
/// `cargo xtask dist`, built here and passed as `AGENTEVAL_DIST`), against a test build of
/// `pkg/` that adds `__testPanic` for the crash-recovery tests. `pkg/` is built again without it
/// afterwards, whatever the outcome, and a last suite checks that the package lacks it.
pub fn test() -> Result<(), String> {
    ensure_chromium()?;
    ensure_npm_packages()?;
    build_with(&["crash-test"])?;
    let tested = test_package();
    build()?;
    tested?;
    Step::new("node")
        .args(["--test", "--test-reporter=spec"])
        .arg("release-package.mjs")
        .dir(js_tests_dir())
        .run()
}

fn test_package() -> Result<(), String> {
    cargo([
        "clippy",
        "-p",
        "agenteval-wasm",
        "--target",
        TARGET,
        "--all-targets",
        "--features",
        "crash-test",
        "--",
        "-D",
        "warnings",
    ])
    .run()?;
    let runner = [
        "CARGO_TARGET_WASM32_UNKNOWN_UNKNOWN_RUNNER",
        "wasm-bindgen-test-runner",
    ];
    let wasm_test = || {
        cargo([
            "test",
            "-p",
            "agenteval-wasm",
            "--target",
            TARGET,
            "--test",
            "web",
        ])
        .env(runner[0], runner[1])
    };
    wasm_test().run()?;
    wasm_test()
        .env("WASM_BINDGEN_USE_BROWSER", "1")
        .env("CHROMEDRIVER", CHROMEDRIVER)
        .run()?;
    cargo(["build", "-q", "-p", "agenteval-cli"]).run()?;
    let cli = target_dir().join("debug/agenteval");
    let judge = agenteval_judge_server::start(agenteval_judge_server::ServerConfig {
        key: Some(TEST_JUDGE_KEY.to_owned()),
        retry_after_ms: 20,
        hang: std::time::Duration::from_secs(120),
        ..agenteval_judge_server::ServerConfig::default()
    })
    .map_err(|error| format!("cannot start the local judge for the tests: {error}"))?;
    let dist = target_dir().join("dist-test/agenteval.html");
    crate::dist::write(&dist, &esbuild())?;
    Step::new("node")
        .args(["--test", "--test-reporter=spec"])
        .arg("--test-concurrency=1")
        .arg(js_tests_dir())
        .env("AGENTEVAL_CLI", &cli)
        .env("AGENTEVAL_DIST", &dist)
        .env("AGENTEVAL_XTASK", xtask_binary()?)
        .env("CHROMIUM", CHROMIUM)
        .env("AGENTEVAL_JUDGE_URL", judge.url())
        .env("AGENTEVAL_JUDGE_KEY", TEST_JUDGE_KEY)
        .dir(js_tests_dir())
        .run()
}

/// The key of the local judge the JS tests score against (a test value, not a secret).
const TEST_JUDGE_KEY: &str = "agenteval-test-judge-key";

/// This xtask's own binary, for the JS suites that run `serve` as a user would.
fn xtask_binary() -> Result<PathBuf, String> {
    std::env::current_exe().map_err(|error| format!("cannot find the xtask binary: {error}"))
}
