//! Appending short byte strings to a buffer without `memcpy` when compiled to WebAssembly.
//!
//! A copy whose length is known only at run time is a call to `memcpy`, which in WebAssembly is
//! the `memory.copy` instruction. V8 runs that as a call out of the compiled code: about 10 ns
//! whatever the length (measured in Node 20), where a native `memcpy` of a few bytes takes one or
//! two. A scored item is written in hundreds of such copies (keys, short strings, indentation),
//! so in WebAssembly they cost more than the bytes they move. A copy of a constant size is
//! compiled to plain loads and stores instead; so there, a short byte string is appended in
//! windows of a constant size: whole windows, then one last window that ends where the bytes end
//! and overlaps the window before it (the bytes written twice are the same both times). Native
//! code keeps `extend_from_slice`, which the windows would only slow down.

/// Longest byte string appended in windows; a longer one is one `memory.copy`, which by then
/// costs less than the windows.
const LONGEST_IN_WINDOWS: usize = 128;

/// Appends `bytes` to `buffer`, as `extend_from_slice` does.
pub fn append(buffer: &mut Vec<u8>, bytes: &[u8]) {
    if cfg!(target_arch = "wasm32") {
        append_in_windows(buffer, bytes);
    } else {
        buffer.extend_from_slice(bytes);
    }
}

/// [`append`] in windows of a constant size, up to [`LONGEST_IN_WINDOWS`] bytes.
fn append_in_windows(buffer: &mut Vec<u8>, bytes: &[u8]) {
    match bytes.len() {
        0..=1 => buffer.extend_from_slice(bytes),
        2..=3 => append_windows::<2>(buffer, bytes),
        4..=7 => append_windows::<4>(buffer, bytes),
        8..=15 => append_windows::<8>(buffer, bytes),
        16..=31 => append_windows::<16>(buffer, bytes),
        32..=LONGEST_IN_WINDOWS => append_windows::<32>(buffer, bytes),
        _ => buffer.extend_from_slice(bytes),
    }
}

/// Appends `bytes`, at least `W` long, as its whole windows of `W` bytes and then its last `W`
/// bytes over the end of those.
fn append_windows<const W: usize>(buffer: &mut Vec<u8>, bytes: &[u8]) {
    let end = buffer.len() + bytes.len();
    buffer.reserve(bytes.len());
    for window in bytes.chunks_exact(W) {
        if let Ok(window) = <&[u8; W]>::try_from(window) {
            buffer.extend_from_slice(window);
        }
    }
    if let Some(last) = bytes.last_chunk::<W>() {
        buffer.truncate(end - W);
        buffer.extend_from_slice(last);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn appends_every_length_as_extend_from_slice_does() {
        let source: Vec<u8> = (0..=255u8).cycle().take(300).collect();
        for prefix in [0, 1, 7, 16, 33] {
            for length in 0..=source.len() {
                let bytes = &source[..length];
                let mut expected: Vec<u8> = vec![0xAA; prefix];
                expected.extend_from_slice(bytes);
                for write in [append, append_in_windows] {
                    let mut buffer: Vec<u8> = vec![0xAA; prefix];
                    write(&mut buffer, bytes);
                    assert_eq!(buffer, expected, "prefix {prefix}, length {length}");
                }
            }
        }
    }

    #[test]
    fn grows_a_buffer_without_spare_capacity() {
        for length in [2, 4, 8, 15, 16, 17, 31, 32, 33, 64, 127, 128] {
            let mut buffer = Vec::with_capacity(3);
            buffer.extend_from_slice(b"abc");
            let bytes: Vec<u8> = (b'a'..=b'z').cycle().take(length).collect();
            append_in_windows(&mut buffer, &bytes);
            assert_eq!(&buffer[..3], b"abc");
            assert_eq!(&buffer[3..], &bytes[..], "length {length}");
        }
    }
}
