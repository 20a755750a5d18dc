//! The `sprat` program: the editor, or a command-line tool over the same library.

fn main() {
    eprintln!("sprat: the command line is being built");
}
