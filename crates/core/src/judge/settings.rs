//! The one judge configuration every host fills in: its fields, defaults and bounds, and the
//! check that turns it into an [`Endpoint`] and a [`Policy`]. The CLI maps its flags into
//! [`JudgeSettings`], the package its `judge` option; an out-of-range value gets the same
//! expectation everywhere, named in the host's own terms through [`Setting`].

use std::time::Duration;

use super::endpoint::{Endpoint, EndpointKind};
use super::schedule::Policy;

/// One setting, as each host names it.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Setting {
    /// The endpoint kind.
    Kind,
    /// The endpoint URL.
    Endpoint,
    /// The deployment or model.
    Model,
    /// The Azure `api-version`.
    ApiVersion,
    /// The embeddings deployment or model.
    EmbeddingModel,
    /// The key.
    Key,
    /// Most requests in flight.
    Concurrency,
    /// Retries after the first attempt.
    Retries,
    /// How long one attempt may take.
    Timeout,
    /// The first back-off wait.
    Backoff,
    /// The temperature override.
    Temperature,
    /// The token limit override.
    MaxTokens,
    /// The seed override.
    Seed,
    /// The largest reply body read.
    MaxReplyBytes,
}

impl Setting {
    /// Its CLI flag.
    pub fn flag(self) -> &'static str {
        match self {
            Setting::Kind => "--judge-kind",
            Setting::Endpoint => "--judge-endpoint",
            Setting::Model => "--judge-model",
            Setting::ApiVersion => "--judge-api-version",
            Setting::EmbeddingModel => "--judge-embedding-model",
            Setting::Key => "the judge key",
            Setting::Concurrency => "--judge-concurrency",
            Setting::Retries => "--judge-retries",
            Setting::Timeout => "--judge-timeout",
            Setting::Backoff => "--judge-backoff-ms",
            Setting::Temperature => "--judge-temperature",
            Setting::MaxTokens => "--judge-max-tokens",
            Setting::Seed => "--judge-seed",
            Setting::MaxReplyBytes => "--judge-max-reply-bytes",
        }
    }

    /// Its key in the package's `judge` option.
    pub fn option_key(self) -> &'static str {
        match self {
            Setting::Kind => "kind",
            Setting::Endpoint => "endpoint",
            Setting::Model => "model",
            Setting::ApiVersion => "apiVersion",
            Setting::EmbeddingModel => "embeddingModel",
            Setting::Key => "apiKey",
            Setting::Concurrency => "concurrency",
            Setting::Retries => "retries",
            Setting::Timeout => "timeoutMs",
            Setting::Backoff => "backoffMs",
            Setting::Temperature => "temperature",
            Setting::MaxTokens => "maxTokens",
            Setting::Seed => "seed",
            Setting::MaxReplyBytes => "maxReplyBytes",
        }
    }
}

/// A setting's allowed range and default.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Bound {
    /// Smallest value allowed.
    pub min: f64,
    /// Largest value allowed.
    pub max: f64,
    /// The value when none is given.
    pub default: f64,
    /// Whether only whole numbers are allowed.
    pub whole: bool,
}

/// Most requests in flight: 1 to 256, default 8.
pub const CONCURRENCY: Bound = Bound {
    min: 1.0,
    max: 256.0,
    default: 8.0,
    whole: true,
};
/// Retries after the first attempt: 0 to 100, default 6.
pub const RETRIES: Bound = Bound {
    min: 0.0,
    max: 100.0,
    default: 6.0,
    whole: true,
};
/// Milliseconds one attempt may take: 1 ms to 1 hour, default 60 s.
pub const TIMEOUT_MS: Bound = Bound {
    min: 1.0,
    max: 3_600_000.0,
    default: 60_000.0,
    whole: false,
};
/// Milliseconds of the first back-off wait: 0 to 10 minutes, default 500.
pub const BACKOFF_MS: Bound = Bound {
    min: 0.0,
    max: 600_000.0,
    default: 500.0,
    whole: false,
};
/// The temperature override: 0 to 2.
pub const TEMPERATURE: Bound = Bound {
    min: 0.0,
    max: 2.0,
    default: 0.0,
    whole: false,
};
/// The token limit override: 1 to 1 000 000.
pub const MAX_TOKENS: Bound = Bound {
    min: 1.0,
    max: 1_000_000.0,
    default: 1.0,
    whole: true,
};
/// The seed override: 0 to 2^32 - 1.
pub const SEED: Bound = Bound {
    min: 0.0,
    max: 4_294_967_295.0,
    default: 0.0,
    whole: true,
};

/// The largest judge reply body read: 1 KiB to 256 MiB, default 4 MiB.
pub const MAX_REPLY_BYTES: Bound = Bound {
    min: 1024.0,
    max: 268_435_456.0,
    default: 4_194_304.0,
    whole: true,
};

/// Why a setting is refused: which, and what was expected.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("{expected}")]
pub struct SettingError {
    /// The setting.
    pub setting: Setting,
    /// What it must be.
    pub expected: String,
}

impl SettingError {
    fn new(setting: Setting, expected: impl Into<String>) -> Self {
        SettingError {
            setting,
            expected: expected.into(),
        }
    }

    /// The message in the CLI's terms (`--judge-concurrency: expected …`).
    pub fn for_cli(&self) -> String {
        format!("{}: {}", self.setting.flag(), self.expected)
    }
}

/// A judge as a host configured it, before checking. Numbers are whatever the user typed; bounds
/// are checked by [`JudgeSettings::resolve`].
#[derive(Debug, Clone, Default, PartialEq)]
pub struct JudgeSettings {
    /// `azure`, `azure-v1` or `openai`; `None` is `azure`.
    pub kind: Option<String>,
    /// The endpoint URL.
    pub endpoint: String,
    /// The deployment or model.
    pub model: String,
    /// The Azure `api-version`.
    pub api_version: Option<String>,
    /// The embeddings deployment or model.
    pub embedding_model: Option<String>,
    /// Most requests in flight.
    pub concurrency: Option<f64>,
    /// Retries after the first attempt.
    pub retries: Option<f64>,
    /// Milliseconds one attempt may take.
    pub timeout_ms: Option<f64>,
    /// Milliseconds of the first back-off wait.
    pub backoff_ms: Option<f64>,
    /// A reasoning model.
    pub reasoning: bool,
    /// Ask for JSON mode (`None`: yes).
    pub json_mode: Option<bool>,
    /// The temperature override.
    pub temperature: Option<f64>,
    /// The token limit override.
    pub max_tokens: Option<f64>,
    /// The seed override.
    pub seed: Option<f64>,
    /// The largest reply body read, in bytes.
    pub max_reply_bytes: Option<f64>,
}

impl JudgeSettings {
    /// The endpoint and the scheduling policy these settings describe.
    ///
    /// # Errors
    /// The first setting out of its bounds or unusable, with what was expected.
    pub fn resolve(&self) -> Result<(Endpoint, Policy), SettingError> {
        let kind = match self.kind.as_deref().map(str::trim) {
            None => EndpointKind::Azure,
            Some(name) => EndpointKind::parse(name).ok_or_else(|| {
                SettingError::new(
                    Setting::Kind,
                    format!(
                        "expected one of {}, found '{name}'",
                        EndpointKind::NAMES.join(", ")
                    ),
                )
            })?,
        };
        check_url(&self.endpoint)?;
        if self.model.trim().is_empty() {
            let what = if kind == EndpointKind::Azure {
                "expected a deployment name"
            } else {
                "expected a model name"
            };
            return Err(SettingError::new(Setting::Model, what));
        }
        let mut endpoint = Endpoint::new(kind, &self.endpoint, &self.model)
            .map_err(|error| SettingError::new(Setting::Endpoint, error.0))?;
        if let Some(version) = self.api_version.as_deref().map(str::trim) {
            if version.is_empty() || !version.chars().all(is_token_char) {
                return Err(SettingError::new(
                    Setting::ApiVersion,
                    "expected an api-version such as 2024-10-21",
                ));
            }
            endpoint.api_version = version.to_owned();
        }
        endpoint.reasoning = self.reasoning;
        endpoint.json_mode = self.json_mode.unwrap_or(true);
        endpoint.temperature = checked(self.temperature, TEMPERATURE, Setting::Temperature)?;
        endpoint.max_tokens =
            checked(self.max_tokens, MAX_TOKENS, Setting::MaxTokens)?.map(|n| n as u32);
        endpoint.seed = checked(self.seed, SEED, Setting::Seed)?.map(|n| n as u64);
        endpoint.embedding_model = self
            .embedding_model
            .as_deref()
            .map(str::trim)
            .filter(|model| !model.is_empty())
            .map(str::to_owned);
        let value = |given, bound: Bound, setting| {
            checked(given, bound, setting).map(|value| value.unwrap_or(bound.default))
        };
        let backoff_base = millis(value(self.backoff_ms, BACKOFF_MS, Setting::Backoff)?);
        let defaults = Policy::default();
        let policy = Policy {
            concurrency: value(self.concurrency, CONCURRENCY, Setting::Concurrency)? as usize,
            max_retries: value(self.retries, RETRIES, Setting::Retries)? as u32,
            timeout: millis(value(self.timeout_ms, TIMEOUT_MS, Setting::Timeout)?),
            backoff_base,
            backoff_cap: defaults.backoff_cap.max(backoff_base),
            max_reply_bytes: value(
                self.max_reply_bytes,
                MAX_REPLY_BYTES,
                Setting::MaxReplyBytes,
            )? as usize,
        };
        Ok((endpoint, policy))
    }
}

/// Refuses a key that could not travel in an HTTP header (control characters, line breaks) or
/// is empty, without ever showing it.
///
/// # Errors
/// What a key must be.
pub fn check_key(key: &str) -> Result<(), SettingError> {
    if key.trim().is_empty() || key.chars().any(|c| c.is_control() || !c.is_ascii()) {
        return Err(SettingError::new(
            Setting::Key,
            "expected a key of printable ASCII characters (no line breaks or control characters)",
        ));
    }
    Ok(())
}

fn checked(
    given: Option<f64>,
    bound: Bound,
    setting: Setting,
) -> Result<Option<f64>, SettingError> {
    let Some(value) = given else {
        return Ok(None);
    };
    let whole_ok = !bound.whole || value.fract() == 0.0;
    if value.is_finite() && whole_ok && (bound.min..=bound.max).contains(&value) {
        return Ok(Some(value));
    }
    let what = if bound.whole {
        "a whole number"
    } else {
        "a number"
    };
    let range = match setting {
        Setting::Timeout => "from 1 ms to 1 hour (3600000 ms)".to_owned(),
        Setting::Backoff => "from 0 ms to 10 minutes (600000 ms)".to_owned(),
        _ => format!(
            "from {} to {}",
            crate::text::decimal::plain(bound.min),
            crate::text::decimal::plain(bound.max)
        ),
    };
    Err(SettingError::new(
        setting,
        format!("expected {what} {range}"),
    ))
}

fn millis(value: f64) -> Duration {
    Duration::from_secs_f64(value / 1000.0)
}

fn is_token_char(c: char) -> bool {
    c.is_ascii_alphanumeric() || matches!(c, '-' | '.' | '_')
}

/// An `http(s)` URL whose host and port a request can be sent to.
fn check_url(url: &str) -> Result<(), SettingError> {
    let url = url.trim();
    let expected = |found: &str| {
        SettingError::new(
            Setting::Endpoint,
            format!(
                "expected an http(s) URL such as https://my-resource.openai.azure.com, {found}"
            ),
        )
    };
    let rest = url
        .strip_prefix("https://")
        .or_else(|| url.strip_prefix("http://"))
        .ok_or_else(|| expected("found one without http:// or https://"))?;
    if url.chars().any(|c| c.is_control() || c.is_whitespace()) {
        return Err(expected("found spaces or control characters in it"));
    }
    let authority = rest.split(['/', '?', '#']).next().unwrap_or_default();
    if authority.contains('@') {
        return Err(expected(
            "found user information (user@host); put the key in the key setting",
        ));
    }
    let (host, port) = match authority.strip_prefix('[') {
        Some(bracketed) => match bracketed.split_once(']') {
            Some((host, after)) => (host, after.strip_prefix(':')),
            None => return Err(expected("found an IPv6 host without its closing ]")),
        },
        None => match authority.rsplit_once(':') {
            Some((host, port)) => (host, Some(port)),
            None => (authority, None),
        },
    };
    if host.is_empty() {
        return Err(expected("found no host"));
    }
    if let Some(port) = port {
        let valid = port
            .parse::<u32>()
            .is_ok_and(|port| (1..=65_535).contains(&port))
            && port.chars().all(|c| c.is_ascii_digit());
        if !valid {
            return Err(expected(&format!(
                "found the port '{port}' (ports run from 1 to 65535)"
            )));
        }
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    fn settings() -> JudgeSettings {
        JudgeSettings {
            endpoint: "https://judge.example.com".into(),
            model: "gpt-4o".into(),
            ..JudgeSettings::default()
        }
    }

    #[test]
    fn defaults_fill_what_is_not_given() {
        let (endpoint, policy) = settings().resolve().expect("valid");
        assert_eq!(endpoint.kind, EndpointKind::Azure);
        assert!(endpoint.json_mode);
        assert_eq!(policy.concurrency, 8);
        assert_eq!(policy.max_retries, 6);
        assert_eq!(policy.timeout, Duration::from_secs(60));
        assert_eq!(policy.backoff_base, Duration::from_millis(500));
        assert_eq!(policy, Policy::default());
    }

    #[test]
    fn values_in_bounds_are_taken_and_those_outside_are_refused_with_the_range() {
        let within = JudgeSettings {
            concurrency: Some(256.0),
            retries: Some(0.0),
            timeout_ms: Some(1.5),
            backoff_ms: Some(0.0),
            ..settings()
        };
        let (_, policy) = within.resolve().expect("valid");
        assert_eq!((policy.concurrency, policy.max_retries), (256, 0));
        for (broken, setting, expected) in [
            (
                JudgeSettings {
                    concurrency: Some(100_000.0),
                    ..settings()
                },
                Setting::Concurrency,
                "expected a whole number from 1 to 256",
            ),
            (
                JudgeSettings {
                    concurrency: Some(0.0),
                    ..settings()
                },
                Setting::Concurrency,
                "expected a whole number from 1 to 256",
            ),
            (
                JudgeSettings {
                    retries: Some(1_000_000.0),
                    ..settings()
                },
                Setting::Retries,
                "expected a whole number from 0 to 100",
            ),
            (
                JudgeSettings {
                    retries: Some(1.5),
                    ..settings()
                },
                Setting::Retries,
                "expected a whole number from 0 to 100",
            ),
            (
                JudgeSettings {
                    timeout_ms: Some(f64::NAN),
                    ..settings()
                },
                Setting::Timeout,
                "expected a number from 1 ms to 1 hour (3600000 ms)",
            ),
            (
                JudgeSettings {
                    temperature: Some(2.5),
                    ..settings()
                },
                Setting::Temperature,
                "expected a number from 0 to 2",
            ),
            (
                JudgeSettings {
                    max_tokens: Some(0.0),
                    ..settings()
                },
                Setting::MaxTokens,
                "expected a whole number from 1 to 1000000",
            ),
        ] {
            let error = broken.resolve().expect_err(expected);
            assert_eq!(
                (error.setting, error.expected.as_str()),
                (setting, expected)
            );
        }
    }

    #[test]
    fn the_error_names_the_setting_as_each_host_does() {
        let error = JudgeSettings {
            concurrency: Some(0.0),
            ..settings()
        }
        .resolve()
        .expect_err("refused");
        assert_eq!(
            error.for_cli(),
            "--judge-concurrency: expected a whole number from 1 to 256"
        );
        assert_eq!(error.setting.option_key(), "concurrency");
    }

    #[test]
    fn unusable_endpoints_are_refused_up_front() {
        for url in [
            "judge.example.com",
            "ftp://judge.example.com",
            "http://127.0.0.1:99999",
            "http://127.0.0.1:0",
            "http://127.0.0.1:80x",
            "https://user:pass@judge.example.com",
            "https://judge.example.com/a b",
            "https://",
            "http://[::1",
        ] {
            let error = JudgeSettings {
                endpoint: url.into(),
                ..settings()
            }
            .resolve()
            .expect_err(url);
            assert_eq!(error.setting, Setting::Endpoint, "{url}");
            assert!(
                error.expected.starts_with("expected an http(s) URL"),
                "{url}: {error}"
            );
        }
        for url in [
            "http://127.0.0.1:65535/v1",
            "https://[::1]:8443",
            "http://localhost",
        ] {
            assert!(
                JudgeSettings {
                    endpoint: url.into(),
                    ..settings()
                }
                .resolve()
                .is_ok(),
                "{url}"
            );
        }
        let kind = JudgeSettings {
            kind: Some("gemini".into()),
            ..settings()
        }
        .resolve();
        assert_eq!(kind.map_err(|error| error.setting), Err(Setting::Kind));
        let model = JudgeSettings {
            model: " ".into(),
            ..settings()
        }
        .resolve();
        assert_eq!(model.map_err(|error| error.setting), Err(Setting::Model));
    }

    #[test]
    fn keys_that_cannot_travel_in_a_header_are_refused_without_being_shown() {
        assert!(check_key("sk-abc123").is_ok());
        for key in ["sk-abc\r\nX-Injected: 1", "sk-abc\n", "", "  ", "clé"] {
            let error = check_key(key).expect_err("refused");
            assert_eq!(error.setting, Setting::Key);
            assert!(!error.expected.contains("sk-abc"));
        }
    }
}
