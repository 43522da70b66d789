//! capecc: OpenMP C in, C calling the capert runtime out. See ARCHITECTURE.md.

pub mod attach;
pub mod diag;
pub mod directive;
pub mod driver;
pub mod emit;
pub mod encoding;
pub mod implicit_int;
pub mod lower;
pub mod parse;
pub mod parse_view;
pub mod preprocess;
pub mod reserved;
pub mod resolve;
pub mod respell;
pub mod template;
pub mod translate;
pub mod work;

pub use translate::{translate, TranslateOptions, Translated};
