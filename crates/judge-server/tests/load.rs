//! Concurrency and random faults: latency is slept per request without holding up other
//! connections, and random faults hit about `fault_rate` of first attempts and never a retry.

#![allow(
    clippy::unwrap_used,
    clippy::expect_used,
    clippy::panic,
    clippy::indexing_slicing
)]

mod common;

use std::collections::{BTreeMap, BTreeSet};
use std::sync::{Arc, Barrier};
use std::thread;
use std::time::{Duration, Instant};

use agenteval_judge_server::{start, ServerConfig};
use common::{judge_request, Client};
use serde_json::json;

const CHAT: &str = "/openai/deployments/judge/chat/completions?api-version=2024-10-21";

#[test]
fn latency_is_applied_to_each_request_concurrently() {
    let server = start(ServerConfig {
        latency: Duration::from_millis(200),
        ..ServerConfig::default()
    })
    .expect("server");
    let clients = 16;
    let barrier = Arc::new(Barrier::new(clients));
    let started = Instant::now();
    let workers: Vec<_> = (0..clients)
        .map(|i| {
            let url = server.url();
            let barrier = Arc::clone(&barrier);
            thread::spawn(move || {
                let mut client = Client::new(&url);
                barrier.wait();
                let sent = Instant::now();
                let reply = client.post(CHAT, &judge_request(&format!("parallel {i}"), 1, 5));
                (reply.status, sent.elapsed())
            })
        })
        .collect();
    for worker in workers {
        let (status, waited) = worker.join().expect("client");
        assert_eq!(status, 200);
        assert!(
            waited >= Duration::from_millis(200),
            "latency skipped: {waited:?}"
        );
    }
    let total = started.elapsed();
    assert!(
        total < Duration::from_millis(1500),
        "16 x 200 ms took {total:?}"
    );
    let stats = server.stats();
    assert!(
        stats.max_in_flight >= 12,
        "max_in_flight {}",
        stats.max_in_flight
    );
    assert!(stats.max_in_flight <= 16);
    assert_eq!(stats.in_flight, 0);
    assert_eq!(stats.completions, 16);
}

/// Sends every request once to `path` on `clients` keep-alive connections; returns the status
/// (0 for a truncated body) of each, by index.
fn send_all(url: &str, path: &str, requests: &[serde_json::Value], clients: usize) -> Vec<u16> {
    let requests = Arc::new(requests.to_vec());
    let workers: Vec<_> = (0..clients)
        .map(|worker| {
            let url = url.to_string();
            let path = path.to_string();
            let requests = Arc::clone(&requests);
            thread::spawn(move || {
                let mut client = Client::new(&url);
                (worker..requests.len())
                    .step_by(clients)
                    .map(|index| {
                        let reply = client.post(&path, &requests[index]);
                        let truncated = reply.announced.is_some_and(|n| reply.body.len() < n);
                        (index, if truncated { 0 } else { reply.status })
                    })
                    .collect::<Vec<_>>()
            })
        })
        .collect();
    let mut statuses = vec![0; requests.len()];
    for worker in workers {
        for (index, status) in worker.join().expect("client") {
            statuses[index] = status;
        }
    }
    statuses
}

#[test]
fn random_faults_hit_about_the_rate_of_first_attempts_only() {
    let server = start(ServerConfig {
        fault_rate: 0.3,
        seed: 7,
        ..ServerConfig::default()
    })
    .expect("server");
    let requests: Vec<_> = (0..1000)
        .map(|i| judge_request(&format!("distinct request {i}"), 1, 5))
        .collect();
    let first = send_all(&server.url(), CHAT, &requests, 4);
    let faulted: BTreeSet<usize> = (0..first.len()).filter(|&i| first[i] != 200).collect();
    assert!(
        (240..=360).contains(&faulted.len()),
        "{} of 1000 first attempts faulted at rate 0.3",
        faulted.len()
    );
    let mut kinds: BTreeMap<u16, usize> = BTreeMap::new();
    for &index in &faulted {
        *kinds.entry(first[index]).or_default() += 1;
    }
    assert_eq!(
        kinds.keys().copied().collect::<Vec<_>>(),
        [0, 429, 500, 503],
        "{kinds:?}"
    );
    let stats = server.stats();
    assert_eq!(stats.random_faults, faulted.len() as u64);
    assert_eq!(stats.faults.values().sum::<u64>(), faulted.len() as u64);

    let retried: Vec<_> = faulted.iter().map(|&i| requests[i].clone()).collect();
    let second = send_all(&server.url(), CHAT, &retried, 4);
    assert!(
        second.iter().all(|&status| status == 200),
        "a retry faulted"
    );
    let again = send_all(&server.url(), CHAT, &requests[..100], 2);
    assert!(
        again.iter().all(|&status| status == 200),
        "a third attempt faulted"
    );

    server.reset_stats();
    let replay = send_all(&server.url(), CHAT, &requests, 4);
    let replay_faulted: BTreeSet<usize> = (0..replay.len()).filter(|&i| replay[i] != 200).collect();
    assert_eq!(
        replay_faulted, faulted,
        "faults are drawn from the request and seed alone"
    );
}

#[test]
fn agent_replies_keep_up_with_concurrency_over_latency() {
    let latency = Duration::from_millis(50);
    let server = start(ServerConfig {
        latency,
        ..ServerConfig::default()
    })
    .expect("server");
    let clients = 32;
    let rounds = 10;
    let requests: Vec<_> = (0..clients * rounds)
        .map(|i| json!({"prompt": format!("Where do I park? ({i})"), "conversation_id": i % clients}))
        .collect();
    let started = Instant::now();
    let statuses = send_all(&server.url(), "/agent/http", &requests, clients);
    let elapsed = started.elapsed();
    assert!(statuses.iter().all(|status| *status == 200), "{statuses:?}");
    let ideal = latency * u32::try_from(rounds).unwrap();
    assert!(elapsed >= ideal, "latency skipped: {elapsed:?}");
    assert!(
        elapsed < ideal * 3,
        "{} requests on {clients} connections at {latency:?} took {elapsed:?} (ideal {ideal:?})",
        requests.len()
    );
    let stats = server.stats();
    assert_eq!(stats.agent_requests["http"], (clients * rounds) as u64);
    assert!(
        stats.max_in_flight >= 24,
        "max_in_flight {}",
        stats.max_in_flight
    );
}
