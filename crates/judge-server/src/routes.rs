//! Routing: which endpoint a request is for, the key check, latency, CORS preflights, the
//! `/stats` and `/reset` endpoints, and counting in the stats. Chat and embeddings replies are
//! written by [`crate::reply`] and [`crate::embeddings`]; paths under `/agent` go to
//! [`crate::agent`].

use std::time::Duration;

use serde_json::{json, Value};

use crate::agent;
use crate::faults;
use crate::hash;
use crate::http::{invalid, method_not_allowed, Outcome, Reply, Request, Response, ALLOW_HEADERS};
use crate::state::Shared;
use crate::{embeddings, reply};

/// What a path asks for.
#[derive(Debug, Clone, PartialEq, Eq)]
enum Route {
    /// Chat completions; the deployment name when the path carries one (Azure).
    Chat(Option<String>),
    /// Embeddings; the deployment name when the path carries one (Azure).
    Embeddings(Option<String>),
    Stats,
    Reset,
    Unknown,
}

impl Route {
    fn resolve(path: &str) -> Route {
        let path = path.strip_suffix('/').unwrap_or(path);
        match path {
            "/v1/chat/completions" | "/chat/completions" | "/openai/v1/chat/completions" => {
                return Route::Chat(None)
            }
            "/v1/embeddings" | "/embeddings" | "/openai/v1/embeddings" => {
                return Route::Embeddings(None)
            }
            "/stats" => return Route::Stats,
            "/reset" => return Route::Reset,
            _ => {}
        }
        let Some((deployment, operation)) = path
            .strip_prefix("/openai/deployments/")
            .and_then(|rest| rest.split_once('/'))
        else {
            return Route::Unknown;
        };
        if deployment.is_empty() {
            return Route::Unknown;
        }
        let deployment = Some(deployment.to_string());
        match operation {
            "chat/completions" => Route::Chat(deployment),
            "embeddings" => Route::Embeddings(deployment),
            _ => Route::Unknown,
        }
    }
}

/// Answers one request.
pub(crate) fn handle(shared: &Shared, request: &Request) -> Reply {
    let route = Route::resolve(request.path());
    if request.method == "OPTIONS" {
        shared.recorder.update(|stats| {
            stats.requests += 1;
            stats.preflights += 1;
        });
        return counted(shared, preflight(request).into());
    }
    match route {
        Route::Stats if request.method == "GET" => {
            let stats = serde_json::to_value(shared.recorder.snapshot()).unwrap_or(Value::Null);
            return Response::json(200, &stats).into();
        }
        Route::Reset if request.method == "POST" => {
            return if shared.admits(request) {
                shared.reset();
                Response::json(200, &json!({"reset": true})).into()
            } else {
                Response::json(401, &faults::access_denied()).into()
            };
        }
        _ => {}
    }
    shared.recorder.update(|stats| stats.requests += 1);
    let agent_route = agent::Route::resolve(request.path());
    let in_flight = (agent_route.is_some()
        || matches!(route, Route::Chat(_) | Route::Embeddings(_)))
    .then(|| shared.recorder.begin());
    if shared.stop.sleep(shared.config.latency) {
        // Stopping: close the connection without an answer.
        return Reply {
            outcome: Outcome::Hang(Duration::ZERO),
            in_flight,
        };
    }
    let outcome = if let Some(agent_route) = &agent_route {
        agent::handle(shared, request, agent_route)
    } else if !shared.admits(request) {
        shared.recorder.update(|stats| stats.unauthorized += 1);
        Outcome::Send(Response::json(401, &faults::access_denied()))
    } else {
        let post = request.method == "POST";
        match route {
            Route::Chat(deployment) if post => {
                shared.recorder.update(|stats| stats.completions += 1);
                api_call(shared, request, deployment.as_deref(), reply::chat)
            }
            Route::Embeddings(deployment) if post => {
                shared.recorder.update(|stats| stats.embeddings += 1);
                api_call(shared, request, deployment.as_deref(), embeddings::reply)
            }
            // `GET /stats` and `POST /reset` were answered above.
            Route::Chat(_) | Route::Embeddings(_) | Route::Reset => {
                method_not_allowed(&request.method, "POST")
            }
            Route::Stats => method_not_allowed(&request.method, "GET"),
            Route::Unknown => not_found(request.path()),
        }
    };
    counted(shared, Reply { outcome, in_flight })
}

/// `reply` with its status counted in the stats.
fn counted(shared: &Shared, reply: Reply) -> Reply {
    let status = match &reply.outcome {
        Outcome::Send(response) | Outcome::Truncate(response) => Some(response.status),
        Outcome::Hang(_) => None,
    };
    if let Some(status) = status {
        shared
            .recorder
            .update(|stats| *stats.by_status.entry(status).or_insert(0) += 1);
    }
    reply
}

type Api = fn(&Shared, &Value, u64, Option<&str>) -> Outcome;

fn api_call(shared: &Shared, request: &Request, deployment: Option<&str>, api: Api) -> Outcome {
    match serde_json::from_slice::<Value>(&request.body) {
        Ok(body) if body.is_object() => api(shared, &body, hash::fnv1a(&request.body), deployment),
        Ok(_) => invalid("the request body must be a JSON object"),
        Err(error) => invalid(&format!(
            "We could not parse the JSON body of your request: {error}"
        )),
    }
}

/// 204 with the CORS headers; also allows any other headers the browser asks to send (the
/// OpenAI SDKs send `x-stainless-*`), and private-network access when asked.
fn preflight(request: &Request) -> Response {
    let mut response = Response::empty(204).with_header("access-control-max-age", "600");
    let mut allowed = ALLOW_HEADERS.to_string();
    if let Some(asked) = request.header("access-control-request-headers") {
        for name in asked.split(',').map(str::trim) {
            let name = name.to_ascii_lowercase();
            let token = !name.is_empty()
                && name
                    .bytes()
                    .all(|byte| byte.is_ascii_alphanumeric() || byte == b'-' || byte == b'_');
            if token && !ALLOW_HEADERS.split(", ").any(|known| known == name) {
                allowed.push_str(", ");
                allowed.push_str(&name);
            }
        }
    }
    response = response.with_header("access-control-allow-headers", allowed);
    if request.header("access-control-request-private-network") == Some("true") {
        response = response.with_header("access-control-allow-private-network", "true");
    }
    response
}

/// 400 with an OpenAI-style `invalid_request_error`.
fn not_found(path: &str) -> Outcome {
    Outcome::Send(Response::json(
        404,
        &json!({"error": {
            "code": "NotFound",
            "message": format!(
                "No route for {path}. The local judge serves POST /openai/deployments/{{deployment}}/chat/completions, \
                 /openai/v1/chat/completions, /v1/chat/completions, /chat/completions, the matching \
                 /embeddings routes, GET /stats and POST /reset."
            ),
        }}),
    ))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn paths_resolve_to_routes() {
        let chat = Route::Chat(None);
        assert_eq!(Route::resolve("/v1/chat/completions"), chat);
        assert_eq!(Route::resolve("/chat/completions"), chat);
        assert_eq!(Route::resolve("/openai/v1/chat/completions/"), chat);
        assert_eq!(
            Route::resolve("/openai/deployments/gpt-4o/chat/completions"),
            Route::Chat(Some("gpt-4o".into()))
        );
        assert_eq!(
            Route::resolve("/openai/deployments/emb/embeddings"),
            Route::Embeddings(Some("emb".into()))
        );
        assert_eq!(Route::resolve("/embeddings"), Route::Embeddings(None));
        assert_eq!(
            Route::resolve("/openai/deployments//chat/completions"),
            Route::Unknown
        );
        assert_eq!(
            Route::resolve("/openai/deployments/x/completions"),
            Route::Unknown
        );
        assert_eq!(Route::resolve("/"), Route::Unknown);
    }
}
