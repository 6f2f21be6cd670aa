//! Judges in the package: the `judge` option read into the core's endpoint and policy, and the
//! seams the core's scheduler runs on here — `fetch` through gloo-net (pages, Web Workers and
//! Node 20), the runtime's timers and clock, the key or an async `getToken` callback, and the
//! judge cache in IndexedDB where the runtime has it. The scheduling itself is the core's.

use std::time::Duration;

use agenteval_core::judge::{
    redirect, settings, Clock, Credential, Credentials, Endpoint, HttpRequest, HttpResponse,
    LocalFuture, Method, Policy, Store, Transport, TransportError,
};
use js_sys::{Function, Promise, Reflect};
use wasm_bindgen::prelude::*;
use wasm_bindgen_futures::JsFuture;

use crate::error::ApiError;
use crate::options::OptionsObject;

#[wasm_bindgen(module = "/js/judge.js")]
extern "C" {
    /// Calls `callback` once `signal` aborts; returns the function that removes the listener.
    #[wasm_bindgen(js_name = onAbort)]
    pub fn on_abort(signal: &JsValue, callback: &Function) -> Function;
    #[wasm_bindgen(js_name = now)]
    fn now_ms() -> f64;
    #[wasm_bindgen(js_name = cacheAvailable)]
    fn cache_available() -> bool;
    #[wasm_bindgen(js_name = cacheGet)]
    fn cache_get(key: &str) -> Promise;
    #[wasm_bindgen(js_name = cachePut)]
    fn cache_put(key: &str, value: &str) -> Promise;
}

/// The keys of the `judge` option.
const JUDGE_KEYS: &[&str] = &[
    "kind",
    "endpoint",
    "model",
    "apiVersion",
    "apiKey",
    "getToken",
    "concurrency",
    "timeoutMs",
    "retries",
    "backoffMs",
    "reasoning",
    "jsonMode",
    "temperature",
    "maxTokens",
    "seed",
    "embeddingModel",
    "maxReplyBytes",
    "cache",
];

/// A judge as the caller configured it.
#[derive(Clone)]
pub struct JudgeSettings {
    /// Endpoint and model parameters.
    pub endpoint: Endpoint,
    /// Limits and timings.
    pub policy: Policy,
    /// How each request is authenticated.
    pub credentials: JsCredentials,
    /// Whether answers are kept in IndexedDB.
    pub persistent_cache: bool,
}

impl JudgeSettings {
    /// Reads `options.judge`; `None` when absent.
    ///
    /// # Errors
    /// `invalidArgument` naming the field. Messages never show the key.
    pub fn read(value: JsValue) -> Result<Option<Self>, ApiError> {
        if value.is_undefined() || value.is_null() {
            return Ok(None);
        }
        let judge = OptionsObject::read(Some(value), "options.judge", JUDGE_KEYS)?;
        let required = |key: &str, what: &str| {
            judge
                .string(key)?
                .filter(|text| !text.trim().is_empty())
                .ok_or_else(|| ApiError::argument(&judge.field(key), what))
        };
        let kind = required("kind", "\"azure\", \"azure-v1\" or \"openai\"")?;
        let endpoint = required("endpoint", "the endpoint's http(s) URL")?;
        let model = required("model", "a deployment or model name")?;
        let requested = settings::JudgeSettings {
            kind: Some(kind),
            endpoint,
            model,
            api_version: judge.string("apiVersion")?,
            embedding_model: judge.string("embeddingModel")?,
            concurrency: number(&judge, "concurrency")?,
            retries: number(&judge, "retries")?,
            timeout_ms: number(&judge, "timeoutMs")?,
            backoff_ms: number(&judge, "backoffMs")?,
            reasoning: boolean(&judge, "reasoning")?.unwrap_or(false),
            json_mode: boolean(&judge, "jsonMode")?,
            temperature: number(&judge, "temperature")?,
            max_tokens: number(&judge, "maxTokens")?,
            seed: number(&judge, "seed")?,
            max_reply_bytes: number(&judge, "maxReplyBytes")?,
        };
        let (endpoint, policy) = requested.resolve().map_err(|error| {
            let expected = error
                .expected
                .strip_prefix("expected ")
                .unwrap_or(&error.expected);
            ApiError::argument(&judge.field(error.setting.option_key()), expected)
        })?;
        let api_key = judge.get("apiKey");
        let get_token = judge.function("getToken")?;
        let api_key = if api_key.is_undefined() || api_key.is_null() {
            None
        } else {
            Some(
                api_key
                    .as_string()
                    .filter(|key| !key.trim().is_empty())
                    .ok_or_else(|| {
                        ApiError::argument(&judge.field("apiKey"), "a non-empty string")
                    })?,
            )
        };
        if let Some(key) = &api_key {
            settings::check_key(key).map_err(|error| {
                let expected = error
                    .expected
                    .strip_prefix("expected ")
                    .unwrap_or(&error.expected);
                ApiError::argument(&judge.field("apiKey"), expected)
            })?;
        }
        if api_key.is_some() && get_token.is_some() {
            return Err(ApiError::argument(
                "options.judge",
                "apiKey or getToken, not both",
            ));
        }
        Ok(Some(JudgeSettings {
            endpoint,
            policy,
            credentials: JsCredentials { api_key, get_token },
            persistent_cache: boolean(&judge, "cache")?.unwrap_or(true) && cache_available(),
        }))
    }
}

fn boolean(options: &OptionsObject, key: &str) -> Result<Option<bool>, ApiError> {
    let value = options.get(key);
    if value.is_undefined() || value.is_null() {
        return Ok(None);
    }
    value
        .as_bool()
        .map(Some)
        .ok_or_else(|| ApiError::argument(&options.field(key), "a boolean"))
}

/// A number as given; its bounds are the core's (`judge::settings`).
fn number(options: &OptionsObject, key: &str) -> Result<Option<f64>, ApiError> {
    let value = options.get(key);
    if value.is_undefined() || value.is_null() {
        return Ok(None);
    }
    value
        .as_f64()
        .map(Some)
        .ok_or_else(|| ApiError::argument(&options.field(key), "a number"))
}

/// The key, or a token from the caller's `getToken` for every request.
#[derive(Clone)]
pub struct JsCredentials {
    api_key: Option<String>,
    get_token: Option<Function>,
}

impl Credentials for JsCredentials {
    fn credential(&self) -> LocalFuture<'_, Result<Option<Credential>, String>> {
        Box::pin(async move {
            if let Some(key) = &self.api_key {
                return Ok(Some(Credential::ApiKey(key.clone())));
            }
            let Some(get_token) = &self.get_token else {
                return Ok(None);
            };
            let returned = get_token
                .call0(&JsValue::UNDEFINED)
                .map_err(|error| format!("getToken threw: {}", describe(&error)))?;
            let token = JsFuture::from(Promise::resolve(&returned))
                .await
                .map_err(|error| format!("getToken rejected: {}", describe(&error)))?;
            match token.as_string().filter(|token| !token.trim().is_empty()) {
                Some(token) => Ok(Some(Credential::Bearer(token))),
                None => Err("getToken did not resolve to a non-empty string".to_owned()),
            }
        })
    }
}

/// A thrown value's message (never the value itself, which could be a token).
fn describe(error: &JsValue) -> String {
    Reflect::get(error, &"message".into())
        .ok()
        .and_then(|message| message.as_string())
        .unwrap_or_else(|| "an error".to_owned())
}

/// `fetch` through gloo-net; dropping a request's future aborts it. Redirects are not followed
/// (`redirect: "manual"`): the core's `judge::redirect` decides.
pub struct FetchTransport;

impl Transport for FetchTransport {
    fn send(&self, request: HttpRequest) -> LocalFuture<'_, Result<HttpResponse, TransportError>> {
        Box::pin(async move {
            let controller = web_sys::AbortController::new()
                .map_err(|_| TransportError::Invalid("AbortController is missing".to_owned()))?;
            let _abort_on_drop = AbortOnDrop(controller.clone());
            let signal = controller.signal();
            let builder = match request.method {
                Method::Post => gloo_net::http::Request::post(&request.url),
                Method::Get => gloo_net::http::Request::get(&request.url),
            };
            let mut builder = builder
                .abort_signal(Some(&signal))
                .redirect(web_sys::RequestRedirect::Manual);
            for (name, value) in &request.headers {
                builder = builder.header(name, value);
            }
            let sent = match request.method {
                Method::Post => builder.body(request.body),
                Method::Get => builder.build(),
            }
            .map_err(|error| TransportError::Invalid(error.to_string()))?;
            let response = sent.send().await.map_err(network)?;
            if response.type_() == web_sys::ResponseType::Opaqueredirect {
                return Err(TransportError::Redirected(redirect::HIDDEN.to_owned()));
            }
            let limit = request.max_response_bytes;
            let declared = response
                .headers()
                .get("content-length")
                .and_then(|length| length.trim().parse::<u64>().ok());
            if declared.is_some_and(|length| length > limit as u64) {
                return Err(TransportError::TooLarge { limit });
            }
            let status = response.status();
            let headers = response.headers().entries().collect();
            let body = match response.body() {
                Some(stream) => read_limited(&stream, limit).await?,
                None => String::new(),
            };
            Ok(HttpResponse {
                status,
                headers,
                body,
            })
        })
    }
}

/// The body of `stream` as text, read chunk by chunk and given up past `limit` bytes (the read is
/// cancelled, so an endless body costs no more than the limit).
async fn read_limited(
    stream: &web_sys::ReadableStream,
    limit: usize,
) -> Result<String, TransportError> {
    let reader: web_sys::ReadableStreamDefaultReader = stream.get_reader().unchecked_into();
    let mut bytes = Vec::new();
    loop {
        let chunk = JsFuture::from(reader.read())
            .await
            .map_err(|error| TransportError::Network(describe(&error)))?;
        let done = Reflect::get(&chunk, &"done".into())
            .ok()
            .and_then(|done| done.as_bool())
            .unwrap_or(true);
        if done {
            break;
        }
        let value = Reflect::get(&chunk, &"value".into()).unwrap_or(JsValue::UNDEFINED);
        let chunk = js_sys::Uint8Array::new(&value);
        if bytes.len() + chunk.length() as usize > limit {
            let _cancelled = reader.cancel();
            return Err(TransportError::TooLarge { limit });
        }
        let start = bytes.len();
        bytes.resize(start + chunk.length() as usize, 0);
        if let Some(room) = bytes.get_mut(start..) {
            chunk.copy_to(room);
        }
    }
    Ok(String::from_utf8(bytes)
        .unwrap_or_else(|error| String::from_utf8_lossy(error.as_bytes()).into_owned()))
}

/// A fetch failure, without the URL (which can carry a key in a query).
fn network(error: gloo_net::Error) -> TransportError {
    TransportError::Network(match error {
        gloo_net::Error::JsError(js) => js.message,
        other => other.to_string(),
    })
}

struct AbortOnDrop(web_sys::AbortController);

impl Drop for AbortOnDrop {
    fn drop(&mut self) {
        self.0.abort();
    }
}

/// `performance.now()` and `setTimeout`.
pub struct JsClock;

impl Clock for JsClock {
    fn now(&self) -> Duration {
        Duration::from_secs_f64(now_ms().max(0.0) / 1000.0)
    }

    fn sleep(&self, duration: Duration) -> LocalFuture<'_, ()> {
        let millis = u32::try_from(duration.as_millis()).unwrap_or(u32::MAX);
        Box::pin(gloo_timers::future::TimeoutFuture::new(millis))
    }
}

/// The judge cache in IndexedDB.
pub struct IndexedDbStore;

impl Store for IndexedDbStore {
    fn get(&self, key: &str) -> LocalFuture<'_, Option<String>> {
        let pending = JsFuture::from(cache_get(key));
        Box::pin(async move { pending.await.ok().and_then(|value| value.as_string()) })
    }

    fn put(&self, key: &str, body: &str) -> LocalFuture<'_, ()> {
        let pending = JsFuture::from(cache_put(key, body));
        Box::pin(async move {
            let _ = pending.await;
        })
    }
}
