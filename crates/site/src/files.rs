//! The site's files in memory: the page (`web/`), the package (`pkg/`) and the examples, keyed
//! `folder/path`, each with its content type and, for what is worth compressing, its brotli and
//! gzip forms, made once (on first request, or all at once by [`Files::precompress`]) and kept.

use std::borrow::Cow;
use std::collections::BTreeMap;
use std::sync::OnceLock;

use crate::encoding::{compress, compressible, Encoding};
use crate::headers::content_type;

/// One file and its compressed forms.
#[derive(Debug)]
struct Asset {
    bytes: Cow<'static, [u8]>,
    content_type: &'static str,
    gzip: OnceLock<Option<Vec<u8>>>,
    brotli: OnceLock<Option<Vec<u8>>>,
}

impl Asset {
    fn new(key: &str, bytes: Cow<'static, [u8]>) -> Self {
        Asset {
            bytes,
            content_type: content_type(key),
            gzip: OnceLock::new(),
            brotli: OnceLock::new(),
        }
    }

    /// The compressed form, when the file is worth compressing and it comes out smaller.
    fn compressed(&self, encoding: Encoding) -> Option<&[u8]> {
        let cell = match encoding {
            Encoding::Identity => return None,
            Encoding::Gzip => &self.gzip,
            Encoding::Brotli => &self.brotli,
        };
        cell.get_or_init(|| {
            compressible(self.content_type)
                .then(|| compress(&self.bytes, encoding).ok())
                .flatten()
                .filter(|compressed| compressed.len() < self.bytes.len())
        })
        .as_deref()
    }
}

/// A file's body as a response sends it.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Body<'a> {
    /// The bytes sent.
    pub bytes: &'a [u8],
    /// Their content coding.
    pub encoding: Encoding,
    /// The file's content type.
    pub content_type: &'static str,
}

/// The files a site serves, by key (`web/index.html`, `pkg/agenteval_wasm_bg.wasm`,
/// `examples/m365-demo.json`).
#[derive(Debug, Default)]
pub struct Files {
    assets: BTreeMap<String, Asset>,
}

impl Files {
    /// Files compiled into the binary (`include_bytes!`), as `(key, bytes)`.
    pub fn from_static(files: &'static [(&'static str, &'static [u8])]) -> Self {
        Files {
            assets: files
                .iter()
                .map(|(key, bytes)| ((*key).to_owned(), Asset::new(key, Cow::Borrowed(*bytes))))
                .collect(),
        }
    }

    /// Files read at run time, as `(key, bytes)`.
    pub fn from_owned(files: impl IntoIterator<Item = (String, Vec<u8>)>) -> Self {
        Files {
            assets: files
                .into_iter()
                .map(|(key, bytes)| {
                    let asset = Asset::new(&key, Cow::Owned(bytes));
                    (key, asset)
                })
                .collect(),
        }
    }

    /// Whether the files hold a page that can run: `web/index.html` and the package's module.
    pub fn has_page(&self) -> bool {
        self.assets.contains_key("web/index.html")
            && self.assets.contains_key("pkg/agenteval_wasm_bg.wasm")
    }

    /// The file at `key`, as it is.
    pub fn get(&self, key: &str) -> Option<&[u8]> {
        self.assets.get(key).map(|asset| asset.bytes.as_ref())
    }

    /// The file at `key` in `encoding` when it has that form, else as it is.
    pub fn body(&self, key: &str, encoding: Encoding) -> Option<Body<'_>> {
        let asset = self.assets.get(key)?;
        Some(match asset.compressed(encoding) {
            Some(bytes) => Body {
                bytes,
                encoding,
                content_type: asset.content_type,
            },
            None => Body {
                bytes: &asset.bytes,
                encoding: Encoding::Identity,
                content_type: asset.content_type,
            },
        })
    }

    /// Makes every file's compressed forms now, so that no request waits for them.
    pub fn precompress(&self) {
        for asset in self.assets.values() {
            asset.compressed(Encoding::Brotli);
            asset.compressed(Encoding::Gzip);
        }
    }

    /// The keys, in order.
    pub fn keys(&self) -> impl Iterator<Item = &str> {
        self.assets.keys().map(String::as_str)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn text_gets_compressed_forms_compressed_files_keep_theirs() {
        let script = "export const x = 1;\n".repeat(500).into_bytes();
        let gz = vec![0x1f, 0x8b, 8, 0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10];
        let files = Files::from_owned([
            ("web/app.js".to_owned(), script.clone()),
            ("pkg/table.bin.gz".to_owned(), gz.clone()),
            ("web/tiny.js".to_owned(), b"x".to_vec()),
        ]);
        files.precompress();
        let body = files.body("web/app.js", Encoding::Brotli).unwrap();
        assert_eq!(body.encoding, Encoding::Brotli);
        assert_eq!(body.content_type, "text/javascript; charset=utf-8");
        assert!(body.bytes.len() < script.len() / 10);
        let body = files.body("web/app.js", Encoding::Identity).unwrap();
        assert_eq!(
            (body.bytes, body.encoding),
            (script.as_slice(), Encoding::Identity)
        );
        let body = files.body("pkg/table.bin.gz", Encoding::Gzip).unwrap();
        assert_eq!(
            (body.bytes, body.encoding),
            (gz.as_slice(), Encoding::Identity)
        );
        let body = files.body("web/tiny.js", Encoding::Gzip).unwrap();
        assert_eq!(
            (body.bytes, body.encoding),
            (b"x".as_slice(), Encoding::Identity)
        );
        assert_eq!(files.body("web/missing.js", Encoding::Gzip), None);
        assert_eq!(
            files.keys().collect::<Vec<_>>(),
            ["pkg/table.bin.gz", "web/app.js", "web/tiny.js"]
        );
    }

    #[test]
    fn a_page_needs_its_index_and_the_package() {
        assert!(!Files::default().has_page());
        let index_only = Files::from_owned([("web/index.html".to_owned(), Vec::new())]);
        assert!(!index_only.has_page());
        static FILES: &[(&str, &[u8])] = &[
            ("web/index.html", b"<!doctype html>"),
            ("pkg/agenteval_wasm_bg.wasm", b"\0asm"),
        ];
        let files = Files::from_static(FILES);
        assert!(files.has_page());
        assert_eq!(
            files.get("web/index.html"),
            Some(b"<!doctype html>".as_slice())
        );
    }
}
