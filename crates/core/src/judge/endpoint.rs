//! Judge endpoints (spec §6): where chat-completion requests go and how they are addressed and
//! authenticated, for Azure OpenAI deployments, Azure's `/openai/v1` and OpenAI-compatible servers
//! (OpenAI, Ollama, vLLM, LM Studio, llama.cpp). Holds no secret: credentials come per request
//! from [`Credentials`](super::http::Credentials).

use std::fmt;

use super::http::{Credential, HttpRequest};

/// The API an endpoint speaks.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, serde::Serialize)]
pub enum EndpointKind {
    /// `{endpoint}/openai/deployments/{deployment}/chat/completions?api-version={v}`.
    #[serde(rename = "azure")]
    Azure,
    /// `{endpoint}/openai/v1/chat/completions`, the model in the body.
    #[serde(rename = "azure-v1")]
    AzureV1,
    /// `{base}/chat/completions`, the model in the body.
    #[serde(rename = "openai")]
    OpenAi,
}

impl EndpointKind {
    /// Every kind, as written in configurations.
    pub const NAMES: [&'static str; 3] = ["azure", "azure-v1", "openai"];

    /// The kind called `name` (`azure`, `azure-v1`, `openai`).
    pub fn parse(name: &str) -> Option<Self> {
        match name {
            "azure" => Some(EndpointKind::Azure),
            "azure-v1" => Some(EndpointKind::AzureV1),
            "openai" => Some(EndpointKind::OpenAi),
            _ => None,
        }
    }

    /// The name as written in configurations.
    pub fn as_str(self) -> &'static str {
        match self {
            EndpointKind::Azure => "azure",
            EndpointKind::AzureV1 => "azure-v1",
            EndpointKind::OpenAi => "openai",
        }
    }
}

impl fmt::Display for EndpointKind {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.as_str())
    }
}

/// The Azure OpenAI `api-version` used when none is configured.
pub const DEFAULT_API_VERSION: &str = "2024-10-21";

/// An endpoint and the model settings every request to it shares.
#[derive(Debug, Clone, PartialEq)]
pub struct Endpoint {
    /// The API it speaks.
    pub kind: EndpointKind,
    /// Base URL without a trailing slash (`https://x.openai.azure.com`, `http://localhost:11434/v1`).
    pub base: String,
    /// Deployment (`azure`) or model name; a criterion may name another.
    pub model: String,
    /// Azure `api-version` (`azure` only).
    pub api_version: String,
    /// A reasoning model: `max_completion_tokens` instead of `max_tokens`, and no temperature.
    pub reasoning: bool,
    /// Ask for `response_format: {"type": "json_object"}` (most servers support it).
    pub json_mode: bool,
    /// Overrides every prompt's temperature.
    pub temperature: Option<f64>,
    /// Overrides every prompt's token limit.
    pub max_tokens: Option<u32>,
    /// Overrides every prompt's seed.
    pub seed: Option<u64>,
    /// The embeddings deployment or model (Copilot Studio's TextSimilarity); none configured
    /// makes such requests fail with a configuration error.
    pub embedding_model: Option<String>,
}

/// Why an endpoint configuration is unusable.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("{0}")]
pub struct EndpointError(pub String);

impl Endpoint {
    /// An endpoint of `kind` at `base` for `model`, with the defaults: JSON mode on, the default
    /// `api-version`, no overrides.
    ///
    /// # Errors
    /// A base that is not an `http(s)` URL, or an empty model.
    pub fn new(kind: EndpointKind, base: &str, model: &str) -> Result<Self, EndpointError> {
        let base = base.trim().trim_end_matches('/');
        let scheme_ok = base.starts_with("https://") || base.starts_with("http://");
        if !scheme_ok || base.len() <= "https://".len() {
            return Err(EndpointError(format!(
                "judge endpoint: expected an http(s) URL, found '{base}'"
            )));
        }
        let model = model.trim();
        if model.is_empty() {
            let what = if kind == EndpointKind::Azure {
                "a deployment name"
            } else {
                "a model name"
            };
            return Err(EndpointError(format!("judge model: expected {what}")));
        }
        Ok(Endpoint {
            kind,
            base: base.to_owned(),
            model: model.to_owned(),
            api_version: DEFAULT_API_VERSION.to_owned(),
            reasoning: false,
            json_mode: true,
            temperature: None,
            max_tokens: None,
            seed: None,
            embedding_model: None,
        })
    }

    /// The chat-completions URL for `model`.
    pub fn chat_url(&self, model: &str) -> String {
        self.url(model, "chat/completions")
    }

    /// The embeddings URL for `model`.
    pub fn embeddings_url(&self, model: &str) -> String {
        self.url(model, "embeddings")
    }

    fn url(&self, model: &str, operation: &str) -> String {
        match self.kind {
            EndpointKind::Azure => {
                let root = self
                    .base
                    .split("/openai/")
                    .next()
                    .unwrap_or(self.base.as_str());
                format!(
                    "{root}/openai/deployments/{}/{operation}?api-version={}",
                    encode_component(model),
                    encode_component(&self.api_version)
                )
            }
            EndpointKind::AzureV1 => {
                let root = self
                    .base
                    .strip_suffix("/openai/v1")
                    .unwrap_or(self.base.as_str());
                format!("{root}/openai/v1/{operation}")
            }
            EndpointKind::OpenAi => format!("{}/{operation}", self.base),
        }
    }

    /// Whether the body names the model (every kind but `azure`, whose URL does).
    pub fn model_in_body(&self) -> bool {
        self.kind != EndpointKind::Azure
    }

    /// The header that carries `credential` to this endpoint.
    pub fn auth_header(&self, credential: &Credential) -> (String, String) {
        match (credential, self.kind) {
            (Credential::ApiKey(key), EndpointKind::Azure | EndpointKind::AzureV1) => {
                ("api-key".to_owned(), key.clone())
            }
            (Credential::ApiKey(token) | Credential::Bearer(token), _) => {
                ("authorization".to_owned(), format!("Bearer {token}"))
            }
        }
    }

    /// No endpoint: the one of a scheduler that only makes plain exchanges (agent calls).
    pub fn unaddressed() -> Self {
        Endpoint {
            kind: EndpointKind::OpenAi,
            base: String::new(),
            model: String::new(),
            api_version: DEFAULT_API_VERSION.to_owned(),
            reasoning: false,
            json_mode: false,
            temperature: None,
            max_tokens: None,
            seed: None,
            embedding_model: None,
        }
    }

    /// A POST of `body` to `url` with the JSON headers (no credential yet).
    pub fn post(&self, url: String, body: String) -> HttpRequest {
        HttpRequest {
            method: super::http::Method::Post,
            url,
            headers: vec![("content-type".to_owned(), "application/json".to_owned())],
            body,
            max_response_bytes: super::http::DEFAULT_MAX_RESPONSE_BYTES,
        }
    }
}

/// Percent-encodes the characters that cannot appear in a URL path segment or query value.
fn encode_component(text: &str) -> String {
    let mut encoded = String::with_capacity(text.len());
    for byte in text.bytes() {
        if byte.is_ascii_alphanumeric() || matches!(byte, b'-' | b'_' | b'.' | b'~') {
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

    fn endpoint(kind: EndpointKind, base: &str) -> Endpoint {
        Endpoint::new(kind, base, "gpt-4o").unwrap()
    }

    #[test]
    fn each_kind_addresses_chat_completions_its_own_way() {
        let azure = endpoint(EndpointKind::Azure, "https://x.openai.azure.com/");
        assert_eq!(
            azure.chat_url("gpt-4o"),
            "https://x.openai.azure.com/openai/deployments/gpt-4o/chat/completions?api-version=2024-10-21"
        );
        let v1 = endpoint(
            EndpointKind::AzureV1,
            "https://x.openai.azure.com/openai/v1",
        );
        assert_eq!(
            v1.chat_url("gpt-4o"),
            "https://x.openai.azure.com/openai/v1/chat/completions"
        );
        let openai = endpoint(EndpointKind::OpenAi, "http://localhost:11434/v1/");
        assert_eq!(
            openai.chat_url("llama3"),
            "http://localhost:11434/v1/chat/completions"
        );
        assert_eq!(
            openai.embeddings_url("m"),
            "http://localhost:11434/v1/embeddings"
        );
        assert!(!azure.model_in_body() && v1.model_in_body() && openai.model_in_body());
    }

    #[test]
    fn azure_deployment_urls_are_built_from_the_resource_root() {
        let azure = endpoint(
            EndpointKind::Azure,
            "https://x.openai.azure.com/openai/deployments/other",
        );
        assert_eq!(
            azure.chat_url("my dep"),
            "https://x.openai.azure.com/openai/deployments/my%20dep/chat/completions?api-version=2024-10-21"
        );
    }

    #[test]
    fn keys_go_in_the_header_each_kind_expects() {
        let key = Credential::ApiKey("k".into());
        let token = Credential::Bearer("t".into());
        let azure = endpoint(EndpointKind::Azure, "https://x.test");
        let openai = endpoint(EndpointKind::OpenAi, "https://x.test/v1");
        assert_eq!(azure.auth_header(&key), ("api-key".into(), "k".into()));
        assert_eq!(
            azure.auth_header(&token),
            ("authorization".into(), "Bearer t".into())
        );
        assert_eq!(
            openai.auth_header(&key),
            ("authorization".into(), "Bearer k".into())
        );
    }

    #[test]
    fn bad_configurations_are_explained() {
        let error = Endpoint::new(EndpointKind::Azure, "x.openai.azure.com", "d").unwrap_err();
        assert!(error.0.contains("http(s) URL"), "{error}");
        let error = Endpoint::new(EndpointKind::Azure, "https://x.test", " ").unwrap_err();
        assert!(error.0.contains("deployment"), "{error}");
        assert_eq!(EndpointKind::parse("azure-v1"), Some(EndpointKind::AzureV1));
        assert_eq!(EndpointKind::parse("Azure"), None);
    }
}
