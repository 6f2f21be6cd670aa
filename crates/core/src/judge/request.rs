//! One judge request as data: the prompt's identity and version, the rendered messages and the
//! model parameters; its JSON body for an endpoint, and the cache key of that body.

use sha2::{Digest, Sha256};

use super::endpoint::Endpoint;
use super::http::HttpRequest;
use crate::json::{Map, Value};

/// The role of a chat message.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Role {
    /// Instructions.
    System,
    /// The data to judge.
    User,
    /// An earlier answer (a custom template's example turn).
    Assistant,
}

impl Role {
    fn as_str(self) -> &'static str {
        match self {
            Role::System => "system",
            Role::User => "user",
            Role::Assistant => "assistant",
        }
    }
}

/// One chat message.
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub struct ChatMessage {
    /// Who speaks.
    pub role: Role,
    /// The text.
    pub content: String,
}

/// The model parameters a prompt asks for (an [`Endpoint`] may override them).
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct ModelParams {
    /// Sampling temperature.
    pub temperature: f64,
    /// Most tokens the reply may take.
    pub max_tokens: u32,
    /// Sampling seed, where the prompt fixes one.
    pub seed: Option<u64>,
}

/// A prompt's identity: which judge prompt, and which version of its text.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct PromptId {
    /// The prompt's name (`relevance`).
    pub name: &'static str,
    /// Its version; any change to its text bumps it.
    pub version: u32,
}

impl PromptId {
    /// `name/vN`, as results and the cache key carry it.
    pub fn label(&self) -> String {
        format!("{}/v{}", self.name, self.version)
    }
}

/// What a request asks the endpoint for.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Operation {
    /// A chat completion of the messages.
    Chat,
    /// The embeddings of the messages' texts, in order (`/embeddings`).
    Embeddings,
}

/// The prompt id of embeddings requests (they have no prompt; the id keeps results and cache
/// keys apart).
pub const EMBEDDINGS: PromptId = PromptId {
    name: "embeddings",
    version: 1,
};

/// A rendered judge request.
#[derive(Debug, Clone, PartialEq)]
pub struct JudgeRequest {
    /// What it asks for.
    pub operation: Operation,
    /// The prompt it was rendered from.
    pub prompt: PromptId,
    /// A model other than the endpoint's (a Foundry criterion's `deployment_name` or `model`).
    pub model: Option<String>,
    /// The criterion's model is a reasoning model (`is_reasoning_model`): sent as the endpoint's
    /// reasoning setting sends every request.
    pub reasoning: bool,
    /// System instructions, then the data.
    pub messages: Vec<ChatMessage>,
    /// The prompt's parameters.
    pub params: ModelParams,
}

/// Version of the cache-key layout; bump it when the key's inputs change.
const CACHE_KEY_LAYOUT: &str = "agenteval-judge-cache/1";

impl JudgeRequest {
    /// A request for the embeddings of `texts`, in order.
    pub fn embeddings(texts: &[&str]) -> Self {
        JudgeRequest {
            operation: Operation::Embeddings,
            prompt: EMBEDDINGS,
            model: None,
            reasoning: false,
            messages: texts
                .iter()
                .map(|text| ChatMessage {
                    role: Role::User,
                    content: (*text).to_owned(),
                })
                .collect(),
            params: ModelParams {
                temperature: 0.0,
                max_tokens: 0,
                seed: None,
            },
        }
    }

    /// The model this request goes to on `endpoint`: its own, else the endpoint's embeddings
    /// model for embeddings (`None` when there is none), else the endpoint's.
    pub fn model<'a>(&'a self, endpoint: &'a Endpoint) -> &'a str {
        match (&self.model, self.operation) {
            (Some(model), _) => model,
            (None, Operation::Embeddings) => endpoint.embedding_model.as_deref().unwrap_or(""),
            (None, Operation::Chat) => &endpoint.model,
        }
    }

    /// The request body for `endpoint`, its overrides applied.
    pub fn body(&self, endpoint: &Endpoint) -> String {
        if self.operation == Operation::Embeddings {
            return self.embeddings_body(endpoint);
        }
        let mut body = Map::new();
        if endpoint.model_in_body() {
            body.insert("model".into(), Value::from(self.model(endpoint)));
        }
        let messages = self
            .messages
            .iter()
            .map(|message| {
                let mut entry = Map::new();
                entry.insert("role".into(), Value::from(message.role.as_str()));
                entry.insert("content".into(), Value::from(message.content.as_str()));
                Value::Object(entry)
            })
            .collect();
        body.insert("messages".into(), Value::Array(messages));
        let max_tokens = endpoint.max_tokens.unwrap_or(self.params.max_tokens);
        if endpoint.reasoning || self.reasoning {
            body.insert("max_completion_tokens".into(), Value::from(max_tokens));
        } else {
            let temperature = endpoint.temperature.unwrap_or(self.params.temperature);
            body.insert("temperature".into(), Value::from(temperature));
            body.insert("max_tokens".into(), Value::from(max_tokens));
        }
        if let Some(seed) = endpoint.seed.or(self.params.seed) {
            body.insert("seed".into(), Value::from(seed));
        }
        if endpoint.json_mode {
            let mut format = Map::new();
            format.insert("type".into(), Value::from("json_object"));
            body.insert("response_format".into(), Value::Object(format));
        }
        serde_json::to_string(&Value::Object(body)).unwrap_or_default()
    }

    fn embeddings_body(&self, endpoint: &Endpoint) -> String {
        let mut body = Map::new();
        if endpoint.model_in_body() {
            body.insert("model".into(), Value::from(self.model(endpoint)));
        }
        let input = self
            .messages
            .iter()
            .map(|message| Value::from(message.content.as_str()))
            .collect();
        body.insert("input".into(), Value::Array(input));
        serde_json::to_string(&Value::Object(body)).unwrap_or_default()
    }

    /// The HTTP request for `endpoint`, without a credential.
    pub fn http(&self, endpoint: &Endpoint) -> HttpRequest {
        let model = self.model(endpoint);
        let url = match self.operation {
            Operation::Chat => endpoint.chat_url(model),
            Operation::Embeddings => endpoint.embeddings_url(model),
        };
        endpoint.post(url, self.body(endpoint))
    }

    /// The cache key (spec §6): a SHA-256 over the endpoint's kind and address, the model, the
    /// prompt's version and the body (rendered messages and parameters), as lower-case hex.
    pub fn cache_key(&self, endpoint: &Endpoint) -> String {
        let mut hasher = Sha256::new();
        for part in [
            CACHE_KEY_LAYOUT,
            endpoint.kind.as_str(),
            &endpoint.base,
            self.model(endpoint),
            &self.prompt.label(),
            &self.body(endpoint),
        ] {
            hasher.update(part.len().to_le_bytes());
            hasher.update(part.as_bytes());
        }
        hasher
            .finalize()
            .iter()
            .map(|byte| format!("{byte:02x}"))
            .collect()
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::judge::endpoint::EndpointKind;

    fn request() -> JudgeRequest {
        JudgeRequest {
            operation: Operation::Chat,
            prompt: PromptId {
                name: "relevance",
                version: 1,
            },
            model: None,
            reasoning: false,
            messages: vec![
                ChatMessage {
                    role: Role::System,
                    content: "rate".into(),
                },
                ChatMessage {
                    role: Role::User,
                    content: "data".into(),
                },
            ],
            params: ModelParams {
                temperature: 0.0,
                max_tokens: 800,
                seed: None,
            },
        }
    }

    fn parse(body: &str) -> serde_json::Value {
        serde_json::from_str(body).unwrap()
    }

    #[test]
    fn bodies_carry_model_messages_and_parameters() {
        let openai = Endpoint::new(EndpointKind::OpenAi, "http://h/v1", "llama3").unwrap();
        let body = parse(&request().body(&openai));
        assert_eq!(
            body,
            serde_json::json!({"model": "llama3", "messages": [{"role": "system", "content": "rate"}, {"role": "user", "content": "data"}], "temperature": 0.0, "max_tokens": 800, "response_format": {"type": "json_object"}})
        );
        let azure = Endpoint::new(EndpointKind::Azure, "https://x.test", "dep").unwrap();
        assert!(parse(&request().body(&azure)).get("model").is_none());
    }

    #[test]
    fn reasoning_models_get_completion_tokens_and_no_temperature() {
        let mut endpoint = Endpoint::new(EndpointKind::AzureV1, "https://x.test", "o3").unwrap();
        endpoint.reasoning = true;
        endpoint.json_mode = false;
        endpoint.seed = Some(7);
        let body = parse(&request().body(&endpoint));
        assert_eq!(body["max_completion_tokens"], 800);
        assert!(body.get("temperature").is_none() && body.get("max_tokens").is_none());
        assert!(body.get("response_format").is_none());
        assert_eq!(body["seed"], 7);
    }

    #[test]
    fn cache_keys_change_with_every_input_that_changes_the_answer() {
        let endpoint = Endpoint::new(EndpointKind::OpenAi, "http://h/v1", "m").unwrap();
        let base = request().cache_key(&endpoint);
        assert_eq!(base.len(), 64);
        assert_eq!(base, request().cache_key(&endpoint));
        let mut other = request();
        other.prompt.version = 2;
        assert_ne!(other.cache_key(&endpoint), base);
        let mut other = request();
        other.model = Some("m2".into());
        assert_ne!(other.cache_key(&endpoint), base);
        let mut other = request();
        other.params.temperature = 0.5;
        assert_ne!(other.cache_key(&endpoint), base);
        let mut other = request();
        other.messages[1].content.push('!');
        assert_ne!(other.cache_key(&endpoint), base);
        let elsewhere = Endpoint::new(EndpointKind::OpenAi, "http://other/v1", "m").unwrap();
        assert_ne!(request().cache_key(&elsewhere), base);
    }
}
