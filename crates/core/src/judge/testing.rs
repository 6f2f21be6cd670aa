//! Test doubles for the judge seams: a clock whose sleeps end at once (advancing its time), and a
//! transport that answers from a script.

use std::cell::{Cell, RefCell};
use std::time::Duration;

use super::http::{Clock, HttpRequest, HttpResponse, LocalFuture, Transport, TransportError};
use super::request::{ChatMessage, JudgeRequest, ModelParams, PromptId, Role};

/// A clock whose `sleep`, once polled, advances its time and resolves at once; sleeps of
/// `hang_from` or longer never end.
#[derive(Debug, Default)]
pub struct ManualClock {
    now: Cell<Duration>,
    slept: RefCell<Vec<Duration>>,
    /// Sleeps at least this long never end.
    pub hang_from: Option<Duration>,
}

impl ManualClock {
    /// A clock whose sleeps of `limit` or longer never end.
    pub fn hanging_from(limit: Duration) -> Self {
        ManualClock {
            hang_from: Some(limit),
            ..ManualClock::default()
        }
    }

    /// Every sleep that ended, in order.
    pub fn sleeps(&self) -> Vec<Duration> {
        self.slept.borrow().clone()
    }
}

impl Clock for ManualClock {
    fn now(&self) -> Duration {
        self.now.get()
    }

    fn sleep(&self, duration: Duration) -> LocalFuture<'_, ()> {
        if self.hang_from.is_some_and(|limit| duration >= limit) {
            return Box::pin(futures::future::pending());
        }
        Box::pin(async move {
            self.slept.borrow_mut().push(duration);
            self.now.set(self.now.get() + duration);
        })
    }
}

/// A reply of the scripted transport.
pub type Scripted = Result<HttpResponse, TransportError>;

/// A transport that answers each request with `script(request, attempt number from 0)`.
pub struct ScriptedTransport<F: Fn(&HttpRequest, usize) -> Option<Scripted>> {
    script: F,
    /// Every request sent.
    pub sent: RefCell<Vec<HttpRequest>>,
}

impl<F: Fn(&HttpRequest, usize) -> Option<Scripted>> ScriptedTransport<F> {
    /// A transport following `script`; `None` from it means the request hangs forever.
    pub fn new(script: F) -> Self {
        ScriptedTransport {
            script,
            sent: RefCell::new(Vec::new()),
        }
    }
}

impl<F: Fn(&HttpRequest, usize) -> Option<Scripted>> Transport for ScriptedTransport<F> {
    fn send(&self, request: HttpRequest) -> LocalFuture<'_, Result<HttpResponse, TransportError>> {
        let attempt = self.sent.borrow().len();
        let reply = (self.script)(&request, attempt);
        self.sent.borrow_mut().push(request);
        match reply {
            Some(reply) => Box::pin(async move { reply }),
            None => Box::pin(futures::future::pending()),
        }
    }
}

/// A 200 chat completion whose message is `content`.
pub fn completion(content: &str) -> HttpResponse {
    let body = serde_json::json!({
        "model": "judge-model",
        "choices": [{"index": 0, "message": {"role": "assistant", "content": content}, "finish_reason": "stop"}],
        "usage": {"prompt_tokens": 10, "completion_tokens": 5, "total_tokens": 15}
    });
    HttpResponse {
        status: 200,
        headers: Vec::new(),
        body: body.to_string(),
    }
}

/// An error status with an OpenAI-style body and `headers`.
pub fn status(code: u16, headers: &[(&str, &str)]) -> HttpResponse {
    HttpResponse {
        status: code,
        headers: headers
            .iter()
            .map(|(name, value)| ((*name).to_owned(), (*value).to_owned()))
            .collect(),
        body: format!(r#"{{"error": {{"code": "{code}", "message": "status {code}"}}}}"#),
    }
}

/// A Relevance request whose one user message is `text`.
pub fn request(text: &str) -> JudgeRequest {
    JudgeRequest {
        operation: crate::judge::Operation::Chat,
        prompt: PromptId {
            name: "relevance",
            version: 1,
        },
        model: None,
        reasoning: false,
        messages: vec![ChatMessage {
            role: Role::User,
            content: text.to_owned(),
        }],
        params: ModelParams {
            temperature: 0.0,
            max_tokens: 100,
            seed: None,
        },
    }
}
