//! `#pragma omp ...` lines: lexer, parser and the directive syntax tree.

pub mod ast;
pub use ast::*;
