use stockman::search::oracle;
use stockman::{Board, Score};
fn main() {
    for fen in std::env::args().skip(1) {
        let mut b = Board::from_fen(&fen).unwrap();
        b.set_root();
        for d in 1..=7 {
            let v = oracle::alphabeta(&mut b, -Score::INFINITE, Score::INFINITE, d, 0);
            if v.is_mate() {
                println!("{fen}: depth {d} {v}");
                break;
            }
            if d == 7 {
                println!("{fen}: no mate by depth 7 ({v})");
            }
        }
    }
}
