//! The target configuration: which agent to run and how to reach it, read from a JSON object
//! (a file in the CLI, an object in the package). Every refusal names its field and what was
//! expected; unknown fields are refused, listing the known ones. A configuration holds no secret,
//! only the names of the environment variables (or the package's callbacks) that supply them.

use std::collections::BTreeMap;
use std::fmt;
use std::time::Duration;

use serde_json::{Map, Value};

use crate::placeholder::{self, Piece, Source};

/// Direct Line's public endpoint, used when a `directline` target names none.
pub const DIRECTLINE_ENDPOINT: &str = "https://directline.botframework.com/v3/directline";

/// A configured agent.
#[derive(Debug, Clone, PartialEq)]
pub enum Target {
    /// Copilot Studio or any Bot Framework agent over Direct Line 3.0.
    DirectLine(DirectLineTarget),
    /// The OpenAI Responses API, or an Azure AI Foundry agent behind it.
    Responses(ResponsesTarget),
    /// An Agent2Agent (JSON-RPC) agent.
    A2a(A2aTarget),
    /// A chat-completions model with a system prompt, as the agent.
    Chat(ChatTarget),
    /// A generic JSON endpoint.
    Http(HttpTarget),
}

/// Where a secret comes from.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum SecretRef {
    /// The environment variable (CLI) or provided value (package) of this name.
    Env(String),
}

/// How a key is sent.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum KeyHeader {
    /// `Authorization: Bearer KEY`.
    Bearer,
    /// `api-key: KEY` (Azure keys).
    ApiKey,
}

/// A `directline` target.
#[derive(Debug, Clone, PartialEq)]
pub struct DirectLineTarget {
    /// `…/v3/directline`, without a trailing slash.
    pub endpoint: String,
    /// The Direct Line secret (`secretEnv`), or none when a token endpoint is used.
    pub secret: Option<SecretRef>,
    /// Copilot Studio's token endpoint (`GET` → `{token}`).
    pub token_endpoint: Option<String>,
    /// How long no new bot message may arrive, after the first, before the reply is complete.
    pub quiet: Duration,
    /// The longest wait for a reply.
    pub timeout: Duration,
    /// The activities' `locale`.
    pub locale: Option<String>,
    /// The user's `from.id`.
    pub user_id: String,
}

/// A `responses` target.
#[derive(Debug, Clone, PartialEq)]
pub struct ResponsesTarget {
    /// Base URL (`…/openai/v1`), without a trailing slash.
    pub endpoint: String,
    /// The model, or a Foundry agent reference.
    pub model: ResponsesModel,
    /// The key's source, if any.
    pub key: Option<SecretRef>,
    /// How the key is sent.
    pub key_header: KeyHeader,
    /// Canned outputs of the functions the agent asks the client to run, by name.
    pub tool_outputs: BTreeMap<String, Value>,
    /// `instructions` sent with each request.
    pub instructions: Option<String>,
}

/// What a Responses request names.
#[derive(Debug, Clone, PartialEq)]
pub enum ResponsesModel {
    /// `"model": NAME`.
    Model(String),
    /// `"agent": {"name", "version", "type": "agent_reference"}`.
    Agent {
        /// The agent's name.
        name: String,
        /// Its version, when pinned.
        version: Option<String>,
    },
}

/// An `a2a` target.
#[derive(Debug, Clone, PartialEq)]
pub struct A2aTarget {
    /// The JSON-RPC URL.
    pub endpoint: String,
    /// The bearer token's source, if any.
    pub key: Option<SecretRef>,
}

/// A `chat` target.
#[derive(Debug, Clone, PartialEq)]
pub struct ChatTarget {
    /// Base URL; requests go to `{endpoint}/chat/completions`.
    pub endpoint: String,
    /// The model.
    pub model: String,
    /// The system prompt.
    pub system: Option<String>,
    /// The key's source, if any.
    pub key: Option<SecretRef>,
    /// How the key is sent.
    pub key_header: KeyHeader,
}

/// An `http` target.
#[derive(Debug, Clone, PartialEq)]
pub struct HttpTarget {
    /// The URL requests go to.
    pub url: String,
    /// `POST` (default) or `GET`.
    pub method: crate::judge::Method,
    /// Header names and value templates (`{{env.NAME}}` for secrets).
    pub headers: Vec<(String, String)>,
    /// The body template: any JSON, whose strings may hold `{{prompt}}`, `{{conversation_id}}`
    /// and `{{item.FIELD}}`.
    pub body: Value,
    /// JSON pointers into the reply.
    pub reply: ReplyPointers,
}

/// Where an `http` target's reply keeps its parts.
#[derive(Debug, Clone, PartialEq)]
pub struct ReplyPointers {
    /// The reply text (required).
    pub text: String,
    /// An array of citations (`{title, url}` objects or strings).
    pub citations: Option<String>,
    /// An array of tool calls (`{name, arguments, output?}`).
    pub tool_calls: Option<String>,
}

/// A configuration the target reader refused: the field and what was expected.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct TargetError {
    /// The field, as a path (`agent.name`, `reply.text`); empty for the whole configuration.
    pub field: String,
    /// What was wrong and what was expected.
    pub message: String,
}

impl fmt::Display for TargetError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        if self.field.is_empty() {
            write!(f, "target: {}", self.message)
        } else {
            write!(f, "target.{}: {}", self.field, self.message)
        }
    }
}

impl std::error::Error for TargetError {}

/// The target kinds, as written in `kind`.
pub const KINDS: [&str; 5] = ["directline", "responses", "a2a", "chat", "http"];

fn refuse(field: &str, message: impl Into<String>) -> TargetError {
    TargetError {
        field: field.to_owned(),
        message: message.into(),
    }
}

impl Target {
    /// Reads a target from its JSON text.
    ///
    /// # Errors
    /// A syntax error (with its line and column) or a [`Target::from_value`] refusal.
    pub fn parse(text: &str) -> Result<Self, TargetError> {
        let value: Value = serde_json::from_str(text).map_err(|error| {
            refuse(
                "",
                format!(
                    "line {}, column {}: {error}; expected a JSON object",
                    error.line(),
                    error.column()
                ),
            )
        })?;
        Target::from_value(&value)
    }

    /// Reads a target from a JSON object.
    ///
    /// # Errors
    /// The first field that is missing, of the wrong type, out of range or unknown.
    pub fn from_value(value: &Value) -> Result<Self, TargetError> {
        let object = value
            .as_object()
            .ok_or_else(|| refuse("", "expected a JSON object with a \"kind\""))?;
        let fields = Fields {
            object,
            prefix: String::new(),
        };
        let kind = fields.required_str("kind")?;
        match kind {
            "directline" => directline(&fields).map(Target::DirectLine),
            "responses" => responses(&fields).map(Target::Responses),
            "a2a" => a2a(&fields).map(Target::A2a),
            "chat" => chat(&fields).map(Target::Chat),
            "http" => http(&fields).map(Target::Http),
            other => Err(refuse(
                "kind",
                format!(
                    "unknown kind '{other}'; expected one of {}",
                    KINDS.join(", ")
                ),
            )),
        }
    }

    /// The kind, as written in `kind`.
    pub fn kind(&self) -> &'static str {
        match self {
            Target::DirectLine(_) => "directline",
            Target::Responses(_) => "responses",
            Target::A2a(_) => "a2a",
            Target::Chat(_) => "chat",
            Target::Http(_) => "http",
        }
    }

    /// The names of the secrets the target needs (`secretEnv`, `keyEnv`, `{{env.NAME}}`).
    pub fn secret_names(&self) -> Vec<String> {
        let named = |secret: &Option<SecretRef>| match secret {
            Some(SecretRef::Env(name)) => vec![name.clone()],
            None => Vec::new(),
        };
        match self {
            Target::DirectLine(target) => named(&target.secret),
            Target::Responses(target) => named(&target.key),
            Target::A2a(target) => named(&target.key),
            Target::Chat(target) => named(&target.key),
            Target::Http(target) => {
                let mut names = Vec::new();
                for (_, value) in &target.headers {
                    for name in env_names(value) {
                        if !names.contains(&name) {
                            names.push(name);
                        }
                    }
                }
                names
            }
        }
    }
}

/// A view of one JSON object whose fields are read by name, refusals naming `prefix.name`.
struct Fields<'v> {
    object: &'v Map<String, Value>,
    prefix: String,
}

impl<'v> Fields<'v> {
    fn path(&self, name: &str) -> String {
        if self.prefix.is_empty() {
            name.to_owned()
        } else {
            format!("{}.{name}", self.prefix)
        }
    }

    fn deny_unknown(&self, known: &[&str]) -> Result<(), TargetError> {
        match self
            .object
            .keys()
            .find(|key| !known.contains(&key.as_str()))
        {
            Some(key) => Err(refuse(
                &self.path(key),
                format!("unknown field; expected one of {}", known.join(", ")),
            )),
            None => Ok(()),
        }
    }

    fn str(&self, name: &str) -> Result<Option<&'v str>, TargetError> {
        match self.object.get(name) {
            None | Some(Value::Null) => Ok(None),
            Some(Value::String(text)) if !text.trim().is_empty() => Ok(Some(text.trim())),
            Some(_) => Err(refuse(&self.path(name), "expected a non-empty string")),
        }
    }

    fn required_str(&self, name: &str) -> Result<&'v str, TargetError> {
        self.str(name)?
            .ok_or_else(|| refuse(&self.path(name), "missing; expected a non-empty string"))
    }

    fn url(&self, name: &str) -> Result<Option<String>, TargetError> {
        let Some(url) = self.str(name)? else {
            return Ok(None);
        };
        let rest = url
            .strip_prefix("https://")
            .or_else(|| url.strip_prefix("http://"));
        if rest.is_none_or(|rest| rest.is_empty() || rest.starts_with('/')) {
            return Err(refuse(
                &self.path(name),
                format!("expected an http(s) URL, found '{url}'"),
            ));
        }
        Ok(Some(url.trim_end_matches('/').to_owned()))
    }

    fn required_url(&self, name: &str) -> Result<String, TargetError> {
        self.url(name)?.ok_or_else(|| {
            refuse(
                &self.path(name),
                "missing; expected an http(s) URL".to_owned(),
            )
        })
    }

    fn millis(&self, name: &str, default: u64, max: u64) -> Result<Duration, TargetError> {
        match self.object.get(name) {
            None | Some(Value::Null) => Ok(Duration::from_millis(default)),
            Some(value) => value
                .as_u64()
                .filter(|ms| (1..=max).contains(ms))
                .map(Duration::from_millis)
                .ok_or_else(|| {
                    refuse(
                        &self.path(name),
                        format!("expected a whole number of milliseconds from 1 to {max}"),
                    )
                }),
        }
    }

    fn env(&self, name: &str) -> Result<Option<SecretRef>, TargetError> {
        let Some(variable) = self.str(name)? else {
            return Ok(None);
        };
        if !is_env_name(variable) {
            return Err(refuse(
                &self.path(name),
                format!(
                    "expected the name of an environment variable (letters, digits, _), found '{variable}'"
                ),
            ));
        }
        Ok(Some(SecretRef::Env(variable.to_owned())))
    }

    fn key_header(&self) -> Result<KeyHeader, TargetError> {
        match self.str("keyHeader")? {
            None | Some("authorization") => Ok(KeyHeader::Bearer),
            Some("api-key") => Ok(KeyHeader::ApiKey),
            Some(other) => Err(refuse(
                &self.path("keyHeader"),
                format!("expected \"authorization\" (Bearer) or \"api-key\", found '{other}'"),
            )),
        }
    }

    fn object(&self, name: &str) -> Result<Option<Fields<'v>>, TargetError> {
        match self.object.get(name) {
            None | Some(Value::Null) => Ok(None),
            Some(Value::Object(object)) => Ok(Some(Fields {
                object,
                prefix: self.path(name),
            })),
            Some(_) => Err(refuse(&self.path(name), "expected a JSON object")),
        }
    }
}

/// The environment variables `{{env.NAME}}` placeholders in `template` name.
pub fn env_names(template: &str) -> Vec<String> {
    placeholder::pieces(template, "")
        .unwrap_or_default()
        .into_iter()
        .filter_map(|piece| match piece {
            Piece::Slot {
                source: Source::Field(path),
                ..
            } => env_variable(&path).map(str::to_owned),
            Piece::Slot { .. } | Piece::Text(_) => None,
        })
        .collect()
}

/// The variable an `env.NAME` placeholder's path names.
pub(crate) fn env_variable(path: &[String]) -> Option<&str> {
    match path {
        [env, name] if env == "env" => Some(name),
        _ => None,
    }
}

/// Whether `name` is a usable environment variable name.
pub fn is_env_name(name: &str) -> bool {
    !name.is_empty()
        && !name.starts_with(|c: char| c.is_ascii_digit())
        && name.chars().all(|c| c.is_ascii_alphanumeric() || c == '_')
}

fn directline(fields: &Fields<'_>) -> Result<DirectLineTarget, TargetError> {
    fields.deny_unknown(&[
        "kind",
        "endpoint",
        "secretEnv",
        "tokenEndpoint",
        "quietMs",
        "timeoutMs",
        "locale",
        "userId",
    ])?;
    let secret = fields.env("secretEnv")?;
    let token_endpoint = fields.url("tokenEndpoint")?;
    if secret.is_some() == token_endpoint.is_some() {
        return Err(refuse(
            "secretEnv",
            "expected exactly one of secretEnv (the Direct Line secret's environment variable) \
             and tokenEndpoint (Copilot Studio's token endpoint)",
        ));
    }
    Ok(DirectLineTarget {
        endpoint: fields
            .url("endpoint")?
            .unwrap_or_else(|| DIRECTLINE_ENDPOINT.to_owned()),
        secret,
        token_endpoint,
        quiet: fields.millis("quietMs", 1500, 600_000)?,
        timeout: fields.millis("timeoutMs", 60_000, 3_600_000)?,
        locale: fields.str("locale")?.map(str::to_owned),
        user_id: fields.str("userId")?.unwrap_or("agenteval-user").to_owned(),
    })
}

fn responses(fields: &Fields<'_>) -> Result<ResponsesTarget, TargetError> {
    fields.deny_unknown(&[
        "kind",
        "endpoint",
        "model",
        "agent",
        "keyEnv",
        "keyHeader",
        "tools",
        "instructions",
    ])?;
    let model = match (fields.str("model")?, fields.object("agent")?) {
        (Some(model), None) => ResponsesModel::Model(model.to_owned()),
        (None, Some(agent)) => {
            agent.deny_unknown(&["name", "version", "type"])?;
            ResponsesModel::Agent {
                name: agent.required_str("name")?.to_owned(),
                version: agent.str("version")?.map(str::to_owned),
            }
        }
        _ => {
            return Err(refuse(
                "model",
                "expected exactly one of model (a model name) and agent ({\"name\", \"version\"}, a Foundry agent)",
            ))
        }
    };
    let mut tool_outputs = BTreeMap::new();
    if let Some(tools) = fields.object("tools")? {
        for (name, canned) in tools.object {
            let output = canned
                .as_object()
                .and_then(|canned| canned.get("output"))
                .ok_or_else(|| {
                    refuse(
                        &tools.path(name),
                        "expected {\"output\": …}, the canned result of this function",
                    )
                })?;
            tool_outputs.insert(name.clone(), output.clone());
        }
    }
    Ok(ResponsesTarget {
        endpoint: fields.required_url("endpoint")?,
        model,
        key: fields.env("keyEnv")?,
        key_header: fields.key_header()?,
        tool_outputs,
        instructions: fields.str("instructions")?.map(str::to_owned),
    })
}

fn a2a(fields: &Fields<'_>) -> Result<A2aTarget, TargetError> {
    fields.deny_unknown(&["kind", "endpoint", "keyEnv"])?;
    Ok(A2aTarget {
        endpoint: fields.required_url("endpoint")?,
        key: fields.env("keyEnv")?,
    })
}

fn chat(fields: &Fields<'_>) -> Result<ChatTarget, TargetError> {
    fields.deny_unknown(&["kind", "endpoint", "model", "system", "keyEnv", "keyHeader"])?;
    Ok(ChatTarget {
        endpoint: fields.required_url("endpoint")?,
        model: fields.required_str("model")?.to_owned(),
        system: fields.str("system")?.map(str::to_owned),
        key: fields.env("keyEnv")?,
        key_header: fields.key_header()?,
    })
}

fn http(fields: &Fields<'_>) -> Result<HttpTarget, TargetError> {
    fields.deny_unknown(&["kind", "url", "method", "headers", "body", "reply"])?;
    let method = match fields.str("method")? {
        None | Some("POST") => crate::judge::Method::Post,
        Some("GET") => crate::judge::Method::Get,
        Some(other) => {
            return Err(refuse(
                "method",
                format!("expected \"POST\" or \"GET\", found '{other}'"),
            ))
        }
    };
    let mut headers = Vec::new();
    if let Some(given) = fields.object("headers")? {
        for (name, value) in given.object {
            let value = value
                .as_str()
                .ok_or_else(|| refuse(&given.path(name), "expected a string"))?;
            for variable in env_names(value) {
                if !is_env_name(&variable) {
                    return Err(refuse(
                        &given.path(name),
                        format!("{{{{env.{variable}}}}}: expected an environment variable name"),
                    ));
                }
            }
            headers.push((name.to_ascii_lowercase(), value.to_owned()));
        }
    }
    let reply = fields
        .object("reply")?
        .ok_or_else(|| refuse("reply", "missing; expected {\"text\": JSON pointer, …}"))?;
    reply.deny_unknown(&["text", "citations", "toolCalls"])?;
    let pointer = |name: &str| -> Result<Option<String>, TargetError> {
        match reply.str(name)? {
            Some(pointer) if !pointer.starts_with('/') => Err(refuse(
                &reply.path(name),
                format!("expected a JSON pointer such as /reply/text, found '{pointer}'"),
            )),
            other => Ok(other.map(str::to_owned)),
        }
    };
    let text = pointer("text")?.ok_or_else(|| {
        refuse(
            "reply.text",
            "missing; expected the JSON pointer of the reply text",
        )
    })?;
    Ok(HttpTarget {
        url: fields.required_url("url")?,
        method,
        headers,
        body: fields
            .object
            .get("body")
            .cloned()
            .unwrap_or_else(|| serde_json::json!({"prompt": "{{prompt}}"})),
        reply: ReplyPointers {
            text,
            citations: pointer("citations")?,
            tool_calls: pointer("toolCalls")?,
        },
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn refusal(text: &str) -> String {
        Target::parse(text).unwrap_err().to_string()
    }

    #[test]
    fn a_directline_target_takes_its_defaults() {
        let target = Target::parse(r#"{"kind": "directline", "secretEnv": "DL_SECRET"}"#).unwrap();
        let Target::DirectLine(target) = target else {
            panic!("expected a directline target")
        };
        assert_eq!(target.endpoint, DIRECTLINE_ENDPOINT);
        assert_eq!(target.quiet, Duration::from_millis(1500));
        assert_eq!(target.timeout, Duration::from_secs(60));
        assert_eq!(target.secret, Some(SecretRef::Env("DL_SECRET".into())));
    }

    #[test]
    fn refusals_name_the_field_and_what_was_expected() {
        assert_eq!(
            refusal(r#"{"kind": "directline"}"#),
            "target.secretEnv: expected exactly one of secretEnv (the Direct Line secret's environment variable) and tokenEndpoint (Copilot Studio's token endpoint)"
        );
        assert_eq!(
            refusal(r#"{"kind": "robot"}"#),
            "target.kind: unknown kind 'robot'; expected one of directline, responses, a2a, chat, http"
        );
        assert_eq!(
            refusal(r#"{"kind": "chat", "endpoint": "ftp://x", "model": "m"}"#),
            "target.endpoint: expected an http(s) URL, found 'ftp://x'"
        );
        assert_eq!(
            refusal(
                r#"{"kind": "responses", "endpoint": "http://x/v1", "agent": {"version": "1"}}"#
            ),
            "target.agent.name: missing; expected a non-empty string"
        );
        assert_eq!(
            refusal(r#"{"kind": "a2a", "endpoint": "http://x", "secret": "abc"}"#),
            "target.secret: unknown field; expected one of kind, endpoint, keyEnv"
        );
        assert_eq!(
            refusal(r#"{"kind": "directline", "secretEnv": "A", "quietMs": -1}"#),
            "target.quietMs: expected a whole number of milliseconds from 1 to 600000"
        );
        assert_eq!(
            refusal(r#"{"kind": "http", "url": "http://x", "reply": {"text": "reply.text"}}"#),
            "target.reply.text: expected a JSON pointer such as /reply/text, found 'reply.text'"
        );
        assert!(refusal("{\"kind\": ").starts_with("target: line 1, column 9"));
        assert_eq!(
            refusal(r#"{"kind": "chat", "endpoint": "http://x", "model": "m", "keyEnv": "MY KEY"}"#),
            "target.keyEnv: expected the name of an environment variable (letters, digits, _), found 'MY KEY'"
        );
    }

    #[test]
    fn secrets_are_named_never_held() {
        let target = Target::parse(
            r#"{"kind": "http", "url": "http://x/agent", "headers": {"X-Key": "{{env.AGENT_KEY}}", "Authorization": "Bearer {{env.AGENT_TOKEN}}"}, "reply": {"text": "/reply/text"}}"#,
        )
        .unwrap();
        assert_eq!(target.secret_names(), vec!["AGENT_KEY", "AGENT_TOKEN"]);
        let foundry = Target::parse(
            r#"{"kind": "responses", "endpoint": "https://x.services.ai.azure.com/openai/v1/", "agent": {"name": "hr", "version": "2"}, "keyEnv": "AZURE_KEY", "keyHeader": "api-key", "tools": {"lookup": {"output": {"days": 20}}}}"#,
        )
        .unwrap();
        let Target::Responses(responses) = &foundry else {
            panic!("expected a responses target")
        };
        assert_eq!(
            responses.endpoint,
            "https://x.services.ai.azure.com/openai/v1"
        );
        assert_eq!(responses.key_header, KeyHeader::ApiKey);
        assert_eq!(
            responses.tool_outputs.get("lookup"),
            Some(&serde_json::json!({"days": 20}))
        );
        assert_eq!(foundry.secret_names(), vec!["AZURE_KEY"]);
    }
}
