//! The `sitke` binary: with no subcommand, the protocol loop on stdin/stdout. The command
//! line and what each command runs are `sitke::cli`'s.

use clap::Parser;

fn main() {
    let cli = sitke::cli::Cli::parse();
    env_logger::Builder::from_env(env_logger::Env::default().default_filter_or(cli.log_filter()))
        .target(env_logger::Target::Stderr)
        .init();
    cli.run();
}
