fn main() {
    std::process::exit(caperun::run::main());
}
