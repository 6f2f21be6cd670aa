//! The run: rate limits and back-off, one failing item among others, a failed turn ending its
//! thread, time-outs, cancel, the concurrency bound and the run report's counts.

use std::cell::Cell;
use std::time::Duration;

use futures::executor::block_on;
use serde_json::json;

use super::{answer, conversation, drive, policy};
use crate::agent::run::{run, Conversation, RunOptions, RunReport, Runner};
use crate::agent::{Secrets, Target};
use crate::judge::testing::{status, ManualClock, ScriptedTransport};
use crate::judge::Policy;
use crate::judge::Scheduler;

const CHAT: &str = r#"{"kind": "chat", "endpoint": "http://agent.test/v1", "model": "m"}"#;
const KEYED_CHAT: &str =
    r#"{"kind": "chat", "endpoint": "http://agent.test/v1", "model": "m", "keyEnv": "CHAT_KEY"}"#;

fn reply(text: &str) -> Option<crate::judge::testing::Scripted> {
    answer(
        200,
        json!({"choices": [{"message": {"role": "assistant", "content": text}}]}),
    )
}

#[test]
fn rate_limits_wait_as_asked_and_server_errors_back_off() {
    let (records, sent, sleeps) =
        drive(
            CHAT,
            &[],
            &[conversation(&["q"])],
            |_, attempt| match attempt {
                0 => Some(Ok(status(429, &[("Retry-After", "1.5")]))),
                1 => Some(Ok(status(503, &[]))),
                _ => reply("at last"),
            },
        );
    assert_eq!(records[0][0].reply.clone().unwrap().text, "at last");
    assert_eq!(sent.len(), 3);
    assert!(sleeps.contains(&Duration::from_millis(1500)), "{sleeps:?}");
    let (records, sent, _) = drive(CHAT, &[], &[conversation(&["q"])], |_, _| {
        Some(Ok(status(500, &[])))
    });
    let error = records[0][0].reply.clone().unwrap_err();
    assert_eq!(error.code, "agentError");
    assert_eq!(
        error.message,
        "chat: create a chat completion: the endpoint answered 500: status 500 (gave up after 3 attempts)"
    );
    assert_eq!(sent.len(), 3);
}

#[test]
fn one_failing_item_never_stops_the_others_and_a_failed_turn_ends_its_thread() {
    let conversations = [
        conversation(&["fine"]),
        conversation(&["broken", "after"]),
        conversation(&["also fine"]),
    ];
    let (records, _, _) = drive(
        KEYED_CHAT,
        &[("CHAT_KEY", "chat-key-abcdefgh")],
        &conversations,
        |request, _| {
            if request.body.contains("broken") {
                return Some(Ok(status(400, &[])));
            }
            reply("ok")
        },
    );
    assert_eq!(records[0][0].reply.clone().unwrap().text, "ok");
    assert_eq!(records[2][0].reply.clone().unwrap().text, "ok");
    let failed = records[1][0].reply.clone().unwrap_err();
    assert_eq!(failed.code, "agentConfigurationError");
    assert!(
        failed
            .message
            .starts_with("chat: create a chat completion: the agent answered 400"),
        "{}",
        failed.message
    );
    assert_eq!(records[1][1].reply.clone().unwrap_err().code, "notSent");
}

#[test]
fn a_hanging_agent_times_out_and_cancel_stops_the_run() {
    let (records, _, _) = drive(CHAT, &[], &[conversation(&["q"])], |_, _| None);
    assert_eq!(
        records[0][0].reply.clone().unwrap_err().code,
        "agentTimeout"
    );
    let target = Target::parse(CHAT).unwrap();
    let secrets = Secrets::default();
    let transport = ScriptedTransport::new(|_, _| None);
    let clock = ManualClock::hanging_from(Duration::from_secs(3600));
    let cancel = crate::judge::Cancel::new();
    let scheduler = Scheduler::for_exchanges(
        &transport,
        &clock,
        Policy {
            timeout: Duration::from_secs(3600),
            ..policy()
        },
    )
    .with_cancel(cancel.clone());
    let runner = Runner {
        target: &target,
        secrets: &secrets,
        scheduler: &scheduler,
        clock: &clock,
        options: RunOptions {
            concurrency: 1,
            run_id: "test".into(),
        },
    };
    let conversations = [conversation(&["a"]), conversation(&["b"])];
    let mut ignore = |_, _| {};
    let mut running = Box::pin(run(&runner, &conversations, &mut ignore));
    assert!(futures::FutureExt::now_or_never(running.as_mut()).is_none());
    cancel.cancel();
    let records = block_on(running);
    assert_eq!(records[0][0].reply.clone().unwrap_err().code, "cancelled");
    assert_eq!(records[1][0].reply.clone().unwrap_err().code, "cancelled");
    assert_eq!(
        transport.sent.borrow().len(),
        1,
        "nothing sent after the cancel"
    );
}

#[test]
fn concurrency_bounds_the_conversations_held_at_once() {
    let in_flight = Cell::new(0);
    let target = Target::parse(CHAT).unwrap();
    let secrets = Secrets::default();
    let transport = ScriptedTransport::new(|_, _| {
        in_flight.set(in_flight.get() + 1);
        reply("ok")
    });
    let clock = ManualClock::default();
    let scheduler = Scheduler::for_exchanges(&transport, &clock, policy());
    let runner = Runner {
        target: &target,
        secrets: &secrets,
        scheduler: &scheduler,
        clock: &clock,
        options: RunOptions {
            concurrency: 3,
            run_id: "test".into(),
        },
    };
    let conversations: Vec<Conversation> = (0..10).map(|_| conversation(&["q"])).collect();
    let mut progress = Vec::new();
    let records = block_on(run(&runner, &conversations, &mut |done, total| {
        progress.push((done, total))
    }));
    assert_eq!(records.len(), 10);
    assert_eq!(progress.last(), Some(&(10, 10)));
    assert!(scheduler.peak_in_flight() <= 3);
    let report = RunReport::new(&runner, &conversations, &records, &["items[11]".to_owned()]);
    assert_eq!((report.answered, report.failed, report.kept), (10, 0, 1));
    assert_eq!(report.requests, 10);
    assert_eq!(report.entries[0].status, "kept");
}
