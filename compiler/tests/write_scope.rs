//! The write scope of each parallel region (`lower/write_scope.rs`) computed for small regions:
//! exactly the spans listed, or the fallback to `__cape_parallel`.

use capecc::{translate, TranslateOptions};

/// The scope of each region call in the translation of `program`, in the order of the calls:
/// `None` for the fallback `__cape_parallel`, else the spans (`g`: all of variable `g`;
/// `block p`: the block pointer `p` points into).
fn scopes(program: &str) -> Vec<Option<Vec<String>>> {
    let options = TranslateOptions {
        line_markers: false,
        collapse_system_headers: true,
    };
    let translated = match translate(program, &options, &|_| None) {
        Ok(t) => t.c,
        Err(errors) => panic!("the test program translates: {errors:?}"),
    };
    let mut found = Vec::new();
    let mut spans: Vec<String> = Vec::new();
    // the entries of a region's `__cape_scope_N[]` (other tables, such as the objects named in
    // reports, look alike)
    let mut in_scope = false;
    for line in translated.lines().map(str::trim) {
        if line.starts_with("const struct __cape_span __cape_scope_") {
            in_scope = true;
            continue;
        }
        if line.starts_with("};") {
            in_scope = false;
        }
        if let Some(entry) = line
            .strip_prefix("{ (const void *)")
            .and_then(|l| l.strip_suffix(" },"))
            .filter(|_| in_scope)
        {
            let (address, size) = entry.split_once(", ").unwrap_or((entry, ""));
            spans.push(match (address.strip_prefix('&'), size) {
                (Some(var), s) if s == format!("sizeof {var}") => var.to_string(),
                _ => format!("block {address}"),
            });
        } else if line.starts_with("__cape_parallel_in_scope(") {
            found.push(Some(std::mem::take(&mut spans)));
        } else if line.starts_with("__cape_parallel(") {
            found.push(None);
        }
    }
    found
}

fn known(spans: &[&str]) -> Vec<Option<Vec<String>>> {
    vec![Some(spans.iter().map(|s| s.to_string()).collect())]
}

const FALLBACK: [Option<Vec<String>>; 1] = [None];

#[test]
fn a_global_array_written_directly_is_one_span() {
    let p = "double g[8][8];\nvoid f(void) {\n#pragma omp parallel for\nfor (int i = 0; i < 8; i++) { g[i][i] = i; }\n}\n";
    assert_eq!(scopes(p), known(&["g"]));
}

#[test]
fn members_of_a_global_struct_stay_in_it() {
    let p = "struct s { double a[4]; int n; double *p; } gs;\nvoid f(void) {\n#pragma omp parallel\n{ gs.a[1] = 1; gs.n++; }\n}\n";
    assert_eq!(scopes(p), known(&["gs"]));
    let through = "struct s { double a[4]; double *p; } gs;\nvoid f(void) {\n#pragma omp parallel\n{ gs.p[1] = 1; }\n}\n";
    assert_eq!(scopes(through), FALLBACK);
}

#[test]
fn writes_through_an_unchanged_pointer_are_its_block() {
    let p = "void f(double *a, double (*m)[8], int n) {\n#pragma omp parallel for\nfor (int i = 0; i < n; i++) { a[i] = 1; m[i][2] = 2; *(a + i) += 1; i[a] = 0; }\n}\n";
    assert_eq!(scopes(p), known(&["block a", "block m"]));
    let param_array = "void f(double a[][8]) {\n#pragma omp parallel\n{ a[1][2] = 3; }\n}\n";
    assert_eq!(scopes(param_array), known(&["block a"]));
}

#[test]
fn private_pointers_point_where_their_values_come_from() {
    let p = "double g[8];\nvoid f(double *a, double *b, int c) {\n#pragma omp parallel\n{\n double *q = a + 1, *r = q;\n double *s;\n s = &g[2];\n q = r + 1; r = q; r++;\n r[0] = 1; *s = 2; (c ? q : b)[1] = 3;\n}\n}\n";
    assert_eq!(scopes(p), known(&["g", "block a", "block b"]));
}

#[test]
fn firstprivate_and_linear_pointers_start_from_the_original() {
    let p = "void f(double *p, int n) {\n#pragma omp parallel firstprivate(p)\n{ p += 1; p[0] = 1; }\n}\n";
    assert_eq!(scopes(p), known(&["block p"]));
    // the original `p` (a parameter) gets the last value: its own bytes are written too
    let linear = "void f(double *p, int n) {\n#pragma omp parallel for linear(p:1)\nfor (int i = 0; i < n; i++) { p[0] = i; p++; }\n}\n";
    assert_eq!(scopes(linear), known(&["p", "block p"]));
}

#[test]
fn a_loaded_pointer_is_not_followed() {
    let rows = "void f(double **rows, int n) {\n#pragma omp parallel for\nfor (int i = 0; i < n; i++) rows[i][0] = 1;\n}\n";
    assert_eq!(scopes(rows), FALLBACK);
    let derived =
        "void f(double **rows) {\n#pragma omp parallel\n{ double *q = rows[0]; q[1] = 0; }\n}\n";
    assert_eq!(scopes(derived), FALLBACK);
    let global = "double *gp[2];\nvoid f(void) {\n#pragma omp parallel\n{ gp[0][1] = 2; }\n}\n";
    assert_eq!(scopes(global), FALLBACK);
}

#[test]
fn a_pointer_that_may_change_is_not_followed() {
    let assigned = "void f(double *a, double *b) {\n#pragma omp parallel\n{\n#pragma omp single\n a = b;\n a[0] = 1; }\n}\n";
    assert_eq!(scopes(assigned), FALLBACK);
    let addressed = "void f(double *a) {\n double **pp = &a;\n#pragma omp parallel\n{ a[0] = 1; }\n (void)pp;\n}\n";
    assert_eq!(scopes(addressed), FALLBACK);
    let integer = "void f(double *a) {\n#pragma omp parallel\n{ ((double *)(long)a)[0] = 1; }\n}\n";
    assert_eq!(scopes(integer), FALLBACK);
}

#[test]
fn calls_make_the_scope_unknown_except_known_libc_functions() {
    let user = "void g(double *x) { x[0] = 1; }\nvoid f(double *a) {\n#pragma omp parallel\n{ g(a); }\n}\n";
    assert_eq!(scopes(user), FALLBACK);
    let pointer = "void f(void (*h)(void)) {\n#pragma omp parallel\n{ h(); }\n}\n";
    assert_eq!(scopes(pointer), FALLBACK);
    let malloc =
        "void f(double **a) {\n#pragma omp parallel\n{ double *t = malloc(8); (void)t; }\n}\n";
    assert_eq!(scopes(malloc), FALLBACK);
    let libc = "double g[4];\nvoid f(double *a, double *b) {\n#pragma omp parallel\n{ memset(a, 0, 8); memcpy(g, b, 8); printf(\"%f\\n\", sqrt(b[0])); }\n}\n";
    assert_eq!(scopes(libc), known(&["g", "block a"]));
    let percent_n =
        "void f(int *count) {\n#pragma omp parallel\n{ printf(\"%d%n\\n\", 1, count); }\n}\n";
    assert_eq!(scopes(percent_n), FALLBACK);
    let own_sqrt = "double sqrt(double x) { return x; }\nvoid f(double *a) {\n#pragma omp parallel\n{ a[0] = sqrt(2.0); }\n}\n";
    assert_eq!(scopes(own_sqrt), FALLBACK);
}

#[test]
fn private_writes_need_no_span() {
    let p =
        "void f(void) {\n int t;\n#pragma omp parallel private(t)\n{ int k = 1; k++; t = k; }\n}\n";
    assert_eq!(scopes(p), known(&[]));
}

#[test]
fn shared_locals_written_are_spans_of_their_own() {
    // the stack is scanned only where the region can write it
    let named = "struct ab { int a, b; };\nvoid f(int n) {\n double local[4];\n struct ab s;\n int t;\n#pragma omp parallel private(t)\n{ int k = 1; t = k; local[0] = k; s.b = n; }\n}\n";
    assert_eq!(scopes(named), known(&["local", "s"]));
    let reduced = "void f(int n) {\n double sum = 0, last;\n#pragma omp parallel for reduction(+:sum) lastprivate(last)\nfor (int i = 0; i < n; i++) { sum += i; last = i; }\n}\n";
    assert_eq!(scopes(reduced), known(&["sum", "last"]));
    let private_pointer = "void f(void) {\n double local[4];\n#pragma omp parallel\n{ double *q = &local[1]; q[0] = 2; }\n}\n";
    assert_eq!(scopes(private_pointer), known(&["local"]));
    // a pointer into the stack reaches the whole shared stack: the runtime resolves it
    let shared_pointer = "void f(void) {\n double local[4];\n double *p = local;\n#pragma omp parallel\n{ p[1] = 2; }\n}\n";
    assert_eq!(scopes(shared_pointer), known(&["block p"]));
    // an array parameter is a pointer: what it points to is written, not the parameter
    let param = "void f(double a[8], int n) {\n#pragma omp parallel for\nfor (int i = 0; i < n; i++) a[i] = i;\n}\n";
    assert_eq!(scopes(param), known(&["block a"]));
    let param_struct = "struct v { double x[2]; };\nvoid f(struct v s) {\n#pragma omp parallel\n{ s.x[1] = 3; }\n}\n";
    assert_eq!(scopes(param_struct), known(&["s"]));
}

#[test]
fn clauses_write_back_their_originals() {
    let p = "double s, last;\nvoid f(int n) {\n#pragma omp parallel for reduction(+:s) lastprivate(last)\nfor (int i = 0; i < n; i++) { s += i; last = i; }\n}\n";
    assert_eq!(scopes(p), known(&["s", "last"]));
    let nested = "double s;\nvoid f(int n) {\n#pragma omp parallel\n{\n#pragma omp for reduction(+:s)\nfor (int i = 0; i < n; i++) s += i;\n}\n}\n";
    assert_eq!(scopes(nested), known(&["s"]));
    let own = "double s;\nvoid f(void) {\n#pragma omp parallel reduction(+:s)\n{ s += 1; }\n}\n";
    assert_eq!(scopes(own), known(&["s"]));
    let inner_private = "double s;\nvoid f(int n) {\n#pragma omp parallel\n{ double t = 0;\n#pragma omp for reduction(+:t)\nfor (int i = 0; i < n; i++) t += i;\n}\n}\n";
    assert_eq!(scopes(inner_private), known(&[]));
}

#[test]
fn an_inner_loop_variable_is_private_in_its_loop_only() {
    let p = "int gi;\ndouble g[8];\nvoid f(void) {\n#pragma omp parallel\n{\n#pragma omp for\nfor (gi = 0; gi < 8; gi++) g[gi] = 0;\n#pragma omp single\ngi = 5;\n}\n}\n";
    assert_eq!(scopes(p), known(&["gi", "g"]));
    let combined = "int gi;\ndouble g[8];\nvoid f(void) {\n#pragma omp parallel for\nfor (gi = 0; gi < 8; gi++) g[gi] = 0;\n}\n";
    assert_eq!(scopes(combined), known(&["g"]));
}

#[test]
fn what_is_not_followed_is_the_fallback() {
    let copyin = "int t;\n#pragma omp threadprivate(t)\nvoid f(void) {\n#pragma omp parallel copyin(t)\n{ }\n}\n";
    assert_eq!(scopes(copyin), FALLBACK);
    let threadprivate = "int t;\n#pragma omp threadprivate(t)\nvoid f(void) {\n#pragma omp parallel\n{ t = 1; }\n}\n";
    assert_eq!(scopes(threadprivate), FALLBACK);
    let asm = "void f(void) {\n#pragma omp parallel\n{ __asm__(\"\"); }\n}\n";
    assert_eq!(scopes(asm), FALLBACK);
    let chunk = "int c(void);\ndouble g[8];\nvoid f(void) {\n#pragma omp parallel for schedule(dynamic, c())\nfor (int i = 0; i < 8; i++) g[i] = 0;\n}\n";
    assert_eq!(scopes(chunk), FALLBACK);
}

#[test]
fn statics_and_incomplete_externs() {
    let p = "extern int ext[];\nvoid f(void) {\n static double acc[4];\n#pragma omp parallel\n{ acc[1] = 1; ext[2] = 3; }\n}\n";
    assert_eq!(scopes(p), known(&["block &ext", "acc"]));
    let inside = "void f(void) {\n#pragma omp parallel\n{ static int once; once = 1; }\n}\n";
    assert_eq!(scopes(inside), FALLBACK);
}
