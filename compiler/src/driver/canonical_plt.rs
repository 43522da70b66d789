//! Library functions at one address on every rank. Position-independent code (capecc's objects and
//! plain `gcc -c` ones are PIE unless built `-fno-pie`) takes the address
//! of a shared library's function from the GOT, or stores it in data through a dynamic
//! relocation: the loader fills in where it put the library in this process, which differs
//! between ranks (ASLR). A pointer to `sin` or `strcmp` that one rank stores in shared memory
//! would then crash another rank that calls it. One non-PIC reference to the function in the
//! link (`movl $sin, %eax`) makes ld give it a canonical PLT entry in the (non-PIE) executable;
//! every GOT entry and pointer of it then holds that entry's fixed address.
//!
//! After the link, the functions the user's code takes the address of (read from its
//! relocations) that the executable left without such an entry get one: a small generated
//! object with those references, and the same link again. Functions only the runtime or the C
//! start-up files refer to are left alone (most programs link once, as before).

use std::path::{Path, PathBuf};

use super::{archive, elf, path_arg, Driver, Step};
use crate::diag::Diagnostic;

impl Driver {
    /// Links again with canonical PLT entries for the library functions whose address
    /// `user_code` takes and that `executable` (just linked by `link_argv`) gives no fixed
    /// address. The generated object goes into the link at `insert_at`.
    pub(super) fn fix_function_addresses(
        &self,
        link_argv: &[String],
        insert_at: usize,
        executable: &Path,
        user_code: &[PathBuf],
    ) -> Step<()> {
        let taken = address_taken(user_code);
        let missing = self.without_fixed_address(executable, &taken);
        if missing.is_empty() {
            return Ok(());
        }
        let source = self.temp.path().join("cape-canonical-plt.s");
        let object = self.temp.path().join("cape-canonical-plt.o");
        self.write_file(&source, non_pic_references(&missing).as_bytes())?;
        let mut argv = self.cc.clone();
        argv.extend(["-c".to_string(), path_arg(&source)]);
        argv.extend(["-o".to_string(), path_arg(&object)]);
        self.run_command(&argv)?;
        let mut relink = link_argv.to_vec();
        relink.insert(insert_at.min(relink.len()), path_arg(&object));
        self.run_command(&relink)?;
        let still: Vec<String> = self
            .without_fixed_address(executable, &taken)
            .into_iter()
            .map(|f| format!("`{}`", f.name))
            .collect();
        if !still.is_empty() {
            let diagnostic = Diagnostic::warning(format!(
                "the address of {} differs between ranks: a pointer to it stored in a parallel region must not be called on another rank",
                still.join(", ")
            ))
            .with_note("the linker gave it no canonical PLT entry");
            self.render(&crate::encoding::Encoded::new(b""), &[diagnostic]);
        }
        Ok(())
    }

    /// The functions of `taken` that `executable` loads from a dynamic relocation.
    fn without_fixed_address(
        &self,
        executable: &Path,
        taken: &[String],
    ) -> Vec<elf::ImportedFunction> {
        if taken.is_empty() {
            return Vec::new();
        }
        let Ok(bytes) = std::fs::read(executable) else {
            return Vec::new();
        };
        elf::functions_without_fixed_address(&bytes)
            .unwrap_or_default()
            .into_iter()
            .filter(|f| taken.contains(&f.name))
            .collect()
    }
}

/// Undefined symbols whose address the objects and static libraries `files` take.
fn address_taken(files: &[PathBuf]) -> Vec<String> {
    let mut names: Vec<String> = Vec::new();
    for path in files {
        let Ok(bytes) = std::fs::read(path) else {
            continue;
        };
        let members = if archive::is_archive(&bytes) {
            archive::members(&bytes).unwrap_or_default()
        } else {
            vec![bytes.as_slice()]
        };
        for member in members {
            for name in elf::address_taken_undefined(member).unwrap_or_default() {
                if !names.contains(&name) {
                    names.push(name);
                }
            }
        }
    }
    names
}

/// Assembly with one absolute (non-PIC) reference to each function, in a function nobody
/// calls. Weak references stay weak, so that an absent function is still allowed.
fn non_pic_references(functions: &[elf::ImportedFunction]) -> String {
    let mut text = String::from(
        "# capecc: absolute references that give these library functions a canonical PLT entry\n",
    );
    for function in functions.iter().filter(|f| f.weak) {
        text.push_str(&format!("\t.weak\t\"{}\"\n", function.name));
    }
    text.push_str("\t.text\n\t.type\t__cape_canonical_plt, @function\n__cape_canonical_plt:\n");
    for function in functions {
        text.push_str(&format!("\tmovl\t$\"{}\", %eax\n", function.name));
    }
    text.push_str("\tret\n\t.size\t__cape_canonical_plt, .-__cape_canonical_plt\n");
    text.push_str("\t.section\t.note.GNU-stack,\"\",@progbits\n");
    text
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn references_each_function_once_weak_ones_weakly() {
        let text = non_pic_references(&[
            elf::ImportedFunction {
                name: "sin".to_string(),
                weak: false,
            },
            elf::ImportedFunction {
                name: "maybe".to_string(),
                weak: true,
            },
        ]);
        assert!(text.contains("\tmovl\t$\"sin\", %eax\n"), "{text}");
        assert!(text.contains("\tmovl\t$\"maybe\", %eax\n"), "{text}");
        assert!(text.contains("\t.weak\t\"maybe\"\n"), "{text}");
        assert!(!text.contains(".weak\t\"sin\""), "{text}");
        assert!(text.contains(".note.GNU-stack"), "{text}");
    }
}
