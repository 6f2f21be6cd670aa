//! Criterion benchmarks of the judge's own cost, with a transport that answers at once: 1 000
//! judge calls through [`Scheduler::call`] and [`Reading::result`] (the cache key, the request
//! body, the limiter, the reply read and checked), and a whole [`engine::judged::run`] over an M365
//! session. What is left per call is the scheduler's and the run's overhead, to set against a
//! judge's latency of a second or so. `cargo xtask bench judge` prints it in µs per call.

#![allow(
    clippy::unwrap_used,
    clippy::expect_used,
    clippy::panic,
    clippy::indexing_slicing
)]

#[path = "../../cli/src/allocator.rs"]
mod allocator;

use std::hint::black_box;
use std::time::{Duration, Instant};

use agenteval_core::dataset::{self, Dataset};
use agenteval_core::engine::{self, Next, Session};
use agenteval_core::judge::{
    Clock, Credential, Endpoint, EndpointKind, FixedCredential, HttpRequest, HttpResponse,
    JudgeCall, LocalFuture, Policy, Scheduler, Transport, TransportError,
};
use criterion::{criterion_group, criterion_main, Criterion, Throughput};
use futures::executor::block_on;
use futures::future::join_all;
use serde_json::json;

/// The allocator the shipped `agenteval` binary uses, so the figures are the CLI's.
#[global_allocator]
static ALLOCATOR: allocator::Allocator = allocator::allocator();

/// Calls per iteration of the scheduler benchmark.
const CALLS: usize = 1_000;
/// Items of the run benchmark's session (each judged by two evaluators).
const RUN_ITEMS: usize = 200;

/// Answers every request at once with the same chat completion, as the local judge writes it.
struct CannedTransport {
    body: String,
}

impl CannedTransport {
    fn new() -> Self {
        let content = json!({
            "reason": "local judge: score 4 on a scale of 1 to 5, derived from the request text",
            "score": 4,
            "status": "completed"
        });
        let body = json!({
            "id": "chatcmpl-0123456789abcdef",
            "object": "chat.completion",
            "created": 1_700_000_000,
            "model": "gpt-4o-judge",
            "choices": [{
                "index": 0,
                "message": {"role": "assistant", "content": content.to_string(), "refusal": null},
                "logprobs": null,
                "finish_reason": "stop"
            }],
            "usage": {"prompt_tokens": 400, "completion_tokens": 30, "total_tokens": 430}
        });
        CannedTransport {
            body: body.to_string(),
        }
    }
}

impl Transport for CannedTransport {
    fn send(&self, request: HttpRequest) -> LocalFuture<'_, Result<HttpResponse, TransportError>> {
        black_box(&request);
        let response = HttpResponse {
            status: 200,
            headers: vec![("content-type".to_owned(), "application/json".to_owned())],
            body: self.body.clone(),
        };
        Box::pin(std::future::ready(Ok(response)))
    }
}

/// Real time, and sleeps that end at once. NOTE: the scheduler races each request against a
/// time-out sleep, polling the request first; the canned answer is ready at its first poll, so
/// it always wins the race.
struct InstantClock {
    origin: Instant,
}

impl Clock for InstantClock {
    fn now(&self) -> Duration {
        self.origin.elapsed()
    }

    fn sleep(&self, _: Duration) -> LocalFuture<'_, ()> {
        Box::pin(std::future::ready(()))
    }
}

/// An M365 document of `items` distinct items, each judged by Relevance and Coherence.
fn session_dataset(items: usize) -> Dataset {
    let items: Vec<serde_json::Value> = (0..items)
        .map(|index| {
            json!({
                "prompt": format!("Question {index}: what is the capital of France, and why?"),
                "response": format!("Answer {index}: Paris is the capital of France, its largest city and the seat of its government."),
            })
        })
        .collect();
    let document = json!({
        "schemaVersion": "1.11.0",
        "default_evaluators": {"Relevance": {}, "Coherence": {}},
        "items": items
    });
    match dataset::load(document.to_string().as_bytes(), None) {
        Ok(loaded) => loaded.dataset,
        Err(error) => panic!("the benchmark document does not load: {error:?}"),
    }
}

/// The judge calls a judged session of `items` items asks for, as the judges render them.
fn judge_calls(items: usize) -> Vec<JudgeCall> {
    let mut session = Session::new(
        session_dataset(items),
        agenteval_core::engine::Customs::default(),
    )
    .with_judge();
    let mut calls = Vec::new();
    while let Some(next) = session.next_entry() {
        if let Next::Pending(pending) = next {
            calls.extend(pending.judge_calls);
        }
    }
    calls
}

fn endpoint() -> Endpoint {
    match Endpoint::new(
        EndpointKind::Azure,
        "https://judge.example.test",
        "gpt-4o-judge",
    ) {
        Ok(endpoint) => endpoint,
        Err(error) => panic!("{error}"),
    }
}

fn policy() -> Policy {
    Policy {
        concurrency: 16,
        ..Policy::default()
    }
}

fn scheduler_overhead(c: &mut Criterion) {
    let transport = CannedTransport::new();
    let clock = InstantClock {
        origin: Instant::now(),
    };
    let credentials = FixedCredential(Some(Credential::ApiKey("sk-bench".to_owned())));
    let calls = judge_calls(CALLS / 2);
    assert_eq!(calls.len(), CALLS);

    let mut group = c.benchmark_group("judge");
    group.throughput(Throughput::Elements(CALLS as u64));
    group.bench_function("scheduler_1000_calls", |b| {
        b.iter(|| {
            let scheduler = Scheduler::new(endpoint(), &transport, &clock, &credentials, policy());
            let results = block_on(join_all(calls.iter().map(|call| {
                let scheduler = &scheduler;
                async move {
                    let prompt = call.request.prompt;
                    match scheduler.call(&call.request).await {
                        Ok(answer) => {
                            call.reading
                                .result(&call.label, prompt, Ok(&answer.completion))
                        }
                        Err(error) => panic!("{error:?}"),
                    }
                }
            })));
            black_box(results)
        })
    });

    let dataset = session_dataset(RUN_ITEMS);
    group.throughput(Throughput::Elements((RUN_ITEMS * 2) as u64));
    group.sample_size(20);
    group.bench_function("run_400_calls", |b| {
        b.iter(|| {
            let scheduler = Scheduler::new(endpoint(), &transport, &clock, &credentials, policy());
            let mut session =
                Session::borrowed(&dataset, agenteval_core::engine::Customs::default())
                    .with_judge();
            block_on(engine::judged::run(
                &mut session,
                &scheduler,
                None,
                &mut |_, _| {},
            ));
            let report = session.finish();
            assert_eq!(
                report.judge.as_ref().map(|figures| figures.requests),
                Some((RUN_ITEMS * 2) as u64)
            );
            black_box(report)
        })
    });
    group.finish();
}

criterion_group!(benches, scheduler_overhead);
criterion_main!(benches);
