//! Arbitrary text as a preprocessed translation unit through the whole translation: it must
//! return C or diagnostics, never panic.
#![no_main]

use capecc::{translate, TranslateOptions};
use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    let text = String::from_utf8_lossy(data);
    let opts = TranslateOptions {
        line_markers: true,
        collapse_system_headers: false,
    };
    let _ = translate(&text, &opts, &|_| None);
});
