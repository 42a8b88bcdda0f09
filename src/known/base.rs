//! The session's known-results base: the loaded tablebases and book, and
//! where the current game stands with the book (it is left after the first
//! position it does not know, until a new game). Loading never fails: it
//! returns the lines to tell the user.

use super::book::{Book, WeightedMove};
use super::book_choice::{BookChoice, BookPick};
use super::syzygy::Tablebases;
use crate::board::Board;
use std::path::Path;
use std::sync::Arc;

/// Where the game stands with the book.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Default)]
enum BookState {
    #[default]
    InBook,
    /// A position of this game was not in the book: no more lookups.
    Left,
}

#[derive(Default)]
pub struct KnownBase {
    tables: Option<Arc<Tablebases>>,
    book: Option<Book>,
    state: BookState,
    choice: BookChoice,
}

impl KnownBase {
    /// The loaded tables, for the searches.
    pub fn tables(&self) -> Option<Arc<Tablebases>> {
        self.tables.clone()
    }

    /// Loads the tables of a `SyzygyPath` value (replacing the old ones);
    /// returns the messages for the user, the count last.
    pub fn load_tables(&mut self, path: &str) -> Vec<String> {
        let loaded = Tablebases::load(path);
        self.tables = loaded.tables;
        let mut lines: Vec<String> = loaded
            .problems
            .into_iter()
            .map(|p| format!("syzygy: {p}"))
            .collect();
        lines.push(match &self.tables {
            Some(t) => {
                let dtz = if t.dtz_count() < t.count() {
                    format!(", {} with DTZ", t.dtz_count())
                } else {
                    String::new()
                };
                format!(
                    "found {} tablebases (up to {} pieces){dtz}",
                    t.count(),
                    t.max_pieces()
                )
            }
            None => format!("found 0 tablebases in {path}"),
        });
        lines
    }

    /// Reads a book file (`None`: no book); returns the message for the user.
    pub fn load_book(&mut self, file: Option<&str>) -> String {
        self.state = BookState::InBook;
        let Some(file) = file else {
            self.book = None;
            return "no book".to_string();
        };
        match Book::load(Path::new(file)) {
            Ok(book) => {
                let message = format!("book {file}: {} entries", book.len());
                self.book = Some(book);
                message
            }
            Err(reason) => {
                self.book = None;
                format!("book not loaded: {reason}")
            }
        }
    }

    /// A new game: the book is open again.
    pub fn new_game(&mut self) {
        self.state = BookState::InBook;
    }

    /// The book's move for `board`, if the game is still in the book and
    /// the book knows the position; a miss leaves the book for this game.
    pub fn book_move(&mut self, board: &Board, how: BookPick) -> Option<WeightedMove> {
        if self.state == BookState::Left {
            return None;
        }
        let book = self.book.as_ref()?;
        let picked = self.choice.pick(&book.moves(board), how);
        if picked.is_none() {
            self.state = BookState::Left;
        }
        picked
    }
}
