//! Tests of the agent module, one file per target or concern, and their helpers: a run of
//! scripted conversations through a scheduler on the judge's scripted transport and manual clock.

mod a2a;
mod chat;
mod directline;
mod fill;
mod http_target;
mod responses;
mod run;

use std::time::Duration;

use futures::executor::block_on;
use serde_json::Value;

use super::run::{run, Conversation, RunOptions, Runner, TurnRecord};
use super::{Prompt, Secrets, Target};
use crate::judge::http::{HttpRequest, HttpResponse};
use crate::judge::testing::{ManualClock, Scripted, ScriptedTransport};
use crate::judge::{Policy, Scheduler};

/// A JSON answer.
pub fn answer(status: u16, body: Value) -> Option<Scripted> {
    Some(Ok(HttpResponse {
        status,
        headers: Vec::new(),
        body: body.to_string(),
    }))
}

/// A conversation of `prompts`.
pub fn conversation(prompts: &[&str]) -> Conversation {
    Conversation {
        label: "items[0]".into(),
        turns: prompts
            .iter()
            .map(|text| Prompt {
                text: (*text).to_owned(),
                ..Prompt::default()
            })
            .collect(),
    }
}

/// The policy of the tests: two retries, 5 s per attempt.
pub fn policy() -> Policy {
    Policy {
        concurrency: 2,
        max_retries: 2,
        timeout: Duration::from_secs(5),
        backoff_base: Duration::from_millis(100),
        backoff_cap: Duration::from_secs(2),
        max_reply_bytes: 1 << 20,
    }
}

/// Runs `conversations` through the target configured by `target`, with `secrets`, answering
/// from `script`; returns each conversation's records, every request sent and the sleeps.
pub fn drive(
    target: &str,
    secrets: &[(&str, &str)],
    conversations: &[Conversation],
    script: impl Fn(&HttpRequest, usize) -> Option<Scripted>,
) -> (Vec<Vec<TurnRecord>>, Vec<HttpRequest>, Vec<Duration>) {
    let target = Target::parse(target).unwrap();
    let secrets = Secrets::new(
        secrets
            .iter()
            .map(|(name, value)| ((*name).to_owned(), (*value).to_owned())),
    );
    let transport = ScriptedTransport::new(script);
    let clock = ManualClock::default();
    let scheduler = Scheduler::for_exchanges(&transport, &clock, policy());
    let runner = Runner {
        target: &target,
        secrets: &secrets,
        scheduler: &scheduler,
        clock: &clock,
        options: RunOptions {
            concurrency: 2,
            run_id: "test".into(),
        },
    };
    let records = block_on(run(&runner, conversations, &mut |_, _| {}));
    (records, transport.sent.take(), clock.sleeps())
}

/// The parsed JSON body of a request.
pub fn body(request: &HttpRequest) -> Value {
    serde_json::from_str(&request.body).unwrap_or(Value::Null)
}
