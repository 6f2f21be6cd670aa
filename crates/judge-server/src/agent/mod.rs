//! The demo agent: the server also plays an agent under the path prefix `/agent`, over Direct
//! Line 3.0, the OpenAI Responses API, chat completions, A2A and a generic JSON endpoint,
//! answering from a small built-in knowledge base, with `[[agent:…]]` fault directives in the
//! prompts. Owns which agent route a path is, its key check and its count in the stats; each
//! protocol's module writes its answers.

mod a2a;
mod chat;
mod directives;
mod directline;
mod http;
mod knowledge;
mod responses;
mod turn;

use serde_json::json;

use crate::faults;
use crate::http::{method_not_allowed, Outcome, Request, Response};
use crate::state::Shared;

/// The path prefix of every agent route.
const PREFIX: &str = "/agent";

/// What an agent path asks for.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) enum Route {
    /// `GET /agent/directline/token`.
    DirectLineToken,
    /// `POST /agent/v3/directline/conversations`.
    DirectLineStart,
    /// `POST /agent/v3/directline/conversations/{id}/activities`, or `GET` (polling).
    DirectLineActivities(String),
    /// `POST /agent/openai/v1/responses`.
    Responses,
    /// `POST /agent/v1/chat/completions`.
    Chat,
    /// `POST /agent/a2a` (JSON-RPC).
    A2a,
    /// `GET /agent/a2a/.well-known/agent-card.json`.
    AgentCard,
    /// `POST /agent/http`.
    Http,
    /// A path under `/agent` that is none of the above.
    Unknown,
}

impl Route {
    /// The agent route of `path`; `None` when it is not under `/agent`.
    pub(crate) fn resolve(path: &str) -> Option<Route> {
        let path = path.strip_suffix('/').unwrap_or(path);
        let rest = match path.strip_prefix(PREFIX)? {
            "" => return Some(Route::Unknown),
            rest if rest.starts_with('/') => rest,
            _ => return None,
        };
        let route = match rest {
            "/directline/token" => Route::DirectLineToken,
            "/v3/directline/conversations" => Route::DirectLineStart,
            "/openai/v1/responses" => Route::Responses,
            "/v1/chat/completions" => Route::Chat,
            "/a2a" => Route::A2a,
            "/a2a/.well-known/agent-card.json" => Route::AgentCard,
            "/http" => Route::Http,
            _ => rest
                .strip_prefix("/v3/directline/conversations/")
                .and_then(|rest| rest.strip_suffix("/activities"))
                .filter(|id| !id.is_empty() && !id.contains('/'))
                .map_or(Route::Unknown, |id| {
                    Route::DirectLineActivities(id.to_string())
                }),
        };
        Some(route)
    }

    /// Its name in the stats' `agent_requests`, for a request with `method`.
    fn name(&self, method: &str) -> &'static str {
        match self {
            Route::DirectLineToken => "directline.token",
            Route::DirectLineStart => "directline.start",
            Route::DirectLineActivities(_) if method == "GET" => "directline.poll",
            Route::DirectLineActivities(_) => "directline.post",
            Route::Responses => "responses",
            Route::Chat => "chat",
            Route::A2a => "a2a",
            Route::AgentCard => "a2a.card",
            Route::Http => "http",
            Route::Unknown => "unknown",
        }
    }

    /// The methods it answers, as an `Allow` header lists them.
    fn methods(&self) -> &'static str {
        match self {
            Route::DirectLineToken | Route::AgentCard => "GET",
            Route::DirectLineActivities(_) => "GET, POST",
            Route::DirectLineStart
            | Route::Responses
            | Route::Chat
            | Route::A2a
            | Route::Http
            | Route::Unknown => "POST",
        }
    }

    /// Whether the route needs the server's key, when it has one (Direct Line conversations
    /// check the secret or their tokens themselves; the token endpoint and the agent card are
    /// public, as Copilot Studio's and A2A's are).
    fn needs_key(&self) -> bool {
        !matches!(
            self,
            Route::DirectLineToken
                | Route::DirectLineStart
                | Route::DirectLineActivities(_)
                | Route::AgentCard
        )
    }
}

/// Answers a request to an agent route.
pub(crate) fn handle(shared: &Shared, request: &Request, route: &Route) -> Outcome {
    if *route == Route::Unknown {
        return not_found(request.path());
    }
    let method = request.method.as_str();
    if !route.methods().split(", ").any(|allowed| allowed == method) {
        return method_not_allowed(method, route.methods());
    }
    shared.recorder.update(|stats| {
        *stats
            .agent_requests
            .entry(route.name(method).to_string())
            .or_insert(0) += 1;
    });
    if route.needs_key() && !shared.admits(request) {
        shared.recorder.update(|stats| stats.unauthorized += 1);
        return Outcome::Send(Response::json(401, &faults::access_denied()));
    }
    match route {
        Route::DirectLineToken => directline::token(shared),
        Route::DirectLineStart => directline::start(shared, request),
        Route::DirectLineActivities(id) if method == "GET" => directline::poll(shared, request, id),
        Route::DirectLineActivities(id) => directline::post(shared, request, id),
        Route::Responses => responses::respond(shared, request),
        Route::Chat => chat::complete(shared, request),
        Route::A2a => a2a::call(shared, request),
        Route::AgentCard => a2a::card(shared, request),
        Route::Http => http::reply(shared, request),
        Route::Unknown => not_found(request.path()),
    }
}

fn not_found(path: &str) -> Outcome {
    Outcome::Send(Response::json(
        404,
        &json!({"error": {
            "code": "NotFound",
            "message": format!(
                "No agent route for {path}. The demo agent serves GET /agent/directline/token, \
                 POST /agent/v3/directline/conversations, GET and POST \
                 /agent/v3/directline/conversations/{{id}}/activities, POST \
                 /agent/openai/v1/responses, POST /agent/v1/chat/completions, POST /agent/a2a, \
                 GET /agent/a2a/.well-known/agent-card.json and POST /agent/http."
            ),
        }}),
    ))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn agent_paths_resolve_to_routes() {
        assert_eq!(Route::resolve("/v1/chat/completions"), None);
        assert_eq!(Route::resolve("/agentx"), None);
        assert_eq!(Route::resolve("/agent"), Some(Route::Unknown));
        assert_eq!(
            Route::resolve("/agent/directline/token/"),
            Some(Route::DirectLineToken)
        );
        assert_eq!(
            Route::resolve("/agent/v3/directline/conversations/abc/activities"),
            Some(Route::DirectLineActivities("abc".into()))
        );
        assert_eq!(
            Route::resolve("/agent/v3/directline/conversations//activities"),
            Some(Route::Unknown)
        );
        assert_eq!(
            Route::resolve("/agent/openai/v1/responses"),
            Some(Route::Responses)
        );
        assert_eq!(
            Route::resolve("/agent/v1/chat/completions"),
            Some(Route::Chat)
        );
        assert_eq!(Route::resolve("/agent/a2a/"), Some(Route::A2a));
        assert_eq!(
            Route::resolve("/agent/a2a/.well-known/agent-card.json"),
            Some(Route::AgentCard)
        );
        assert_eq!(Route::resolve("/agent/http"), Some(Route::Http));
    }
}
