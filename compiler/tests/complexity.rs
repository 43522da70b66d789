//! Translation work grows linearly with the number of constructs: the searches the translator
//! makes per construct (the statement after a pragma, the construct around it, the edits and
//! uses inside it, lock pairs, variables by name) are counted by `capecc::work`, for programs
//! of n and 4n regions. A rescan of the whole file per construct makes the count grow 16-fold.
//! No timing: the count is the same on a loaded machine.

use capecc::{translate, TranslateOptions};

/// `regions` regions in `main` (a worksharing loop with a reduction, a barrier, a critical
/// update, a lock pair) and as many small functions holding a region each.
fn program(regions: usize) -> String {
    let mut text = String::from("typedef struct { int x; } omp_lock_t;\nvoid omp_set_lock(omp_lock_t *);\nvoid omp_unset_lock(omp_lock_t *);\nint printf(const char *, ...);\nomp_lock_t lock;\ndouble a[100];\n");
    for f in 0..regions {
        text.push_str(&format!(
            "int f{f}(int n)\n{{\n    int t{f} = 0;\n#pragma omp parallel for reduction(+:t{f})\n    for (int i = 0; i < n; i++)\n        t{f} += i;\n    return t{f};\n}}\n"
        ));
    }
    text.push_str("int main(void)\n{\n    int s = 0, c = 0;\n");
    for _ in 0..regions {
        text.push_str(
            "#pragma omp parallel\n    {\n#pragma omp for reduction(+:s)\n        for (int i = 0; i < 100; i++) { a[i] = i; s += i; }\n#pragma omp barrier\n#pragma omp critical\n        c += 1;\n        omp_set_lock(&lock);\n        c += 2;\n        omp_unset_lock(&lock);\n    }\n",
        );
    }
    text.push_str("    printf(\"%d %d\\n\", s, c);\n    return 0;\n}\n");
    text
}

fn work_for(regions: usize) -> u64 {
    let text = program(regions);
    let options = TranslateOptions {
        line_markers: false,
        collapse_system_headers: true,
    };
    capecc::work::take();
    let translated = translate(&text, &options, &|_| None);
    let work = capecc::work::take();
    if let Err(errors) = &translated {
        panic!("the test program translates: {errors:?}");
    }
    work
}

#[test]
fn translation_work_grows_linearly_with_the_number_of_regions() {
    let small = work_for(200);
    let large = work_for(800);
    assert!(small > 0, "the searches are counted");
    // linear: 4x (some slack for lookups that grow logarithmically); quadratic: 16x
    assert!(
        large <= small * 6,
        "work for 800 regions is {large}, for 200 regions {small}: more than linear"
    );
}
