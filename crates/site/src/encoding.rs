//! Compression: which encoding a request's `Accept-Encoding` allows (brotli, then gzip, else
//! none), which files are worth compressing, and the compression itself (brotli from the
//! `brotli` crate, gzip from `flate2`). Pure but for the CPU it spends.

use std::io::{self, Write};

/// A response body's content coding.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Encoding {
    /// As the file is.
    Identity,
    /// `gzip`.
    Gzip,
    /// `br`.
    Brotli,
}

impl Encoding {
    /// The `content-encoding` token, `None` for [`Encoding::Identity`].
    pub fn token(self) -> Option<&'static str> {
        match self {
            Encoding::Identity => None,
            Encoding::Gzip => Some("gzip"),
            Encoding::Brotli => Some("br"),
        }
    }
}

/// Brotli's quality: 9 of 11 compresses the page's modules within a few percent of 11 in a
/// small fraction of its time.
const BROTLI_QUALITY: u32 = 9;
/// Brotli's window, 2^22 bytes.
const BROTLI_WINDOW: u32 = 22;

/// The encoding to answer with under `accept` (the request's `Accept-Encoding`, if any):
/// brotli when its weight is highest and not 0, else gzip when not 0, else identity. A `*`
/// weighs for the codings not named; `x-gzip` counts as `gzip`.
pub fn negotiate(accept: Option<&str>) -> Encoding {
    let Some(accept) = accept else {
        return Encoding::Identity;
    };
    let mut brotli = None;
    let mut gzip = None;
    let mut any = None;
    for item in accept.split(',') {
        let mut parts = item.split(';');
        let name = parts.next().unwrap_or_default().trim().to_ascii_lowercase();
        let weight = parts
            .filter_map(|parameter| parameter.trim().strip_prefix("q="))
            .find_map(|value| value.trim().parse::<f32>().ok())
            .unwrap_or(1.0);
        match name.as_str() {
            "br" => brotli = Some(weight),
            "gzip" | "x-gzip" => gzip = Some(weight),
            "*" => any = Some(weight),
            _ => {}
        }
    }
    let brotli = brotli.or(any).unwrap_or(0.0);
    let gzip = gzip.or(any).unwrap_or(0.0);
    if brotli > 0.0 && brotli >= gzip {
        Encoding::Brotli
    } else if gzip > 0.0 {
        Encoding::Gzip
    } else {
        Encoding::Identity
    }
}

/// Whether a body of `content_type` is worth compressing (text, JSON, WebAssembly, SVG; not
/// what is compressed already).
pub fn compressible(content_type: &str) -> bool {
    let essence = content_type
        .split(';')
        .next()
        .unwrap_or_default()
        .trim()
        .to_ascii_lowercase();
    essence.starts_with("text/")
        || matches!(
            essence.as_str(),
            "application/json" | "application/jsonl" | "application/wasm" | "image/svg+xml"
        )
}

/// `bytes` compressed with `encoding` (as they are for [`Encoding::Identity`]).
///
/// # Errors
/// When the compressor fails to write into memory (it does not in practice).
pub fn compress(bytes: &[u8], encoding: Encoding) -> io::Result<Vec<u8>> {
    match encoding {
        Encoding::Identity => Ok(bytes.to_vec()),
        Encoding::Gzip => {
            let mut encoder = flate2::write::GzEncoder::new(
                Vec::with_capacity(bytes.len() / 3),
                flate2::Compression::best(),
            );
            encoder.write_all(bytes)?;
            encoder.finish()
        }
        Encoding::Brotli => {
            let mut out = Vec::with_capacity(bytes.len() / 3);
            {
                let mut writer = brotli::CompressorWriter::new(
                    &mut out,
                    64 * 1024,
                    BROTLI_QUALITY,
                    BROTLI_WINDOW,
                );
                writer.write_all(bytes)?;
                writer.flush()?;
            }
            Ok(out)
        }
    }
}

#[cfg(test)]
mod tests {
    use std::io::Read;

    use super::*;

    #[test]
    fn brotli_is_preferred_then_gzip_by_weight() {
        let cases = [
            (None, Encoding::Identity),
            (Some(""), Encoding::Identity),
            (Some("identity"), Encoding::Identity),
            (Some("gzip, deflate, br, zstd"), Encoding::Brotli),
            (Some("gzip, deflate"), Encoding::Gzip),
            (Some("x-gzip"), Encoding::Gzip),
            (Some("BR"), Encoding::Brotli),
            (Some("br;q=0, gzip"), Encoding::Gzip),
            (Some("br;q=0.5, gzip;q=0.8"), Encoding::Gzip),
            (Some("br;q=0.8, gzip;q=0.8"), Encoding::Brotli),
            (Some("gzip;q=0, br;q=0"), Encoding::Identity),
            (Some("*"), Encoding::Brotli),
            (Some("*;q=0.5, br;q=0"), Encoding::Gzip),
            (Some("deflate"), Encoding::Identity),
        ];
        for (accept, expected) in cases {
            assert_eq!(negotiate(accept), expected, "{accept:?}");
        }
    }

    #[test]
    fn text_json_and_wasm_are_compressed_compressed_files_are_not() {
        for kind in [
            "text/html; charset=utf-8",
            "text/javascript; charset=utf-8",
            "application/json",
            "application/jsonl",
            "application/wasm",
            "image/svg+xml",
        ] {
            assert!(compressible(kind), "{kind}");
        }
        for kind in ["application/gzip", "image/png", "application/octet-stream"] {
            assert!(!compressible(kind), "{kind}");
        }
    }

    #[test]
    fn each_encoding_decodes_to_the_bytes() {
        let text: Vec<u8> = (0..20_000)
            .flat_map(|index: u32| format!("line {index} of the page\n").into_bytes())
            .collect();
        let gzip = compress(&text, Encoding::Gzip).unwrap();
        assert!(
            gzip.len() < text.len() / 4,
            "{} of {}",
            gzip.len(),
            text.len()
        );
        let mut decoded = Vec::new();
        flate2::read::GzDecoder::new(gzip.as_slice())
            .read_to_end(&mut decoded)
            .unwrap();
        assert_eq!(decoded, text);

        let brotli = compress(&text, Encoding::Brotli).unwrap();
        assert!(
            brotli.len() < text.len() / 4,
            "{} of {}",
            brotli.len(),
            text.len()
        );
        let mut decoded = Vec::new();
        brotli::Decompressor::new(brotli.as_slice(), 4096)
            .read_to_end(&mut decoded)
            .unwrap();
        assert_eq!(decoded, text);

        assert_eq!(compress(&text, Encoding::Identity).unwrap(), text);
        assert_eq!(Encoding::Brotli.token(), Some("br"));
        assert_eq!(Encoding::Gzip.token(), Some("gzip"));
        assert_eq!(Encoding::Identity.token(), None);
    }
}
