use std::time::Instant;
use agenteval_core::dataset::m365::DocumentOutline;
use agenteval_core::report::m365_document::DocumentOptions;
use agenteval_core::stream;

#[global_allocator]
static GLOBAL: mimalloc::MiMalloc = mimalloc::MiMalloc;

fn rss() -> String {
    std::fs::read_to_string("/proc/self/status").unwrap().lines().filter(|l| l.starts_with("VmRSS") || l.starts_with("VmHWM")).collect::<Vec<_>>().join(" ")
}

fn main() {
    let path = std::env::args().nth(1).unwrap();
    let text = std::fs::read_to_string(&path).unwrap();
    eprintln!("read {}", rss());
    let start = Instant::now();
    let outline = DocumentOutline::read(&text).unwrap();
    eprintln!("outline {:?} {}", start.elapsed(), rss());
    let start = Instant::now();
    let mut out = std::io::BufWriter::new(std::fs::File::create("/tmp/out3.json").unwrap());
    let summary = stream::write_scored(&outline, &DocumentOptions::default(), &mut out).unwrap();
    eprintln!("write {:?} {} {}", start.elapsed(), summary.summary.items, rss());
}
