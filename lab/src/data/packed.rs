//! The binary data format (`STKDATA1`): 32-byte little-endian records of a
//! position, the score of the search that played from it and its game's
//! result. Packing and unpacking one record, and reading and writing files
//! of them (an 8-byte magic, then nothing but records).

use crate::data::sample::GameResult;
use shakmaty::{
    Bitboard, Board, CastlingMode, Chess, Color, FromSetup, Piece, Position, Role, Setup,
};
use std::io::{Read, Write};
use std::path::{Path, PathBuf};
use stockman::files::{PartialFile, partial_path};

/// The first 8 bytes of a data file.
pub const MAGIC: [u8; 8] = *b"STKDATA1";
pub const HEADER_BYTES: usize = MAGIC.len();
pub const RECORD_BYTES: usize = 32;
/// Scores are centipawns for White within this bound (mates and tablebase
/// results are clamped to it by whoever makes the record).
pub const MAX_SCORE: i16 = 3000;
/// Pieces a record holds, at most (16 bytes of 4-bit codes).
pub const MAX_PIECES: usize = 32;
/// The largest data file read: far above any real one.
pub const MAX_FILE_BYTES: u64 = 64 << 30;

/// Flag bits (byte 28): the record has no search score (stored as 0) ...
pub const FLAG_NO_SCORE: u8 = 1;
/// ... or no game result (stored as 0): a label that was a probability.
pub const FLAG_NO_RESULT: u8 = 2;

// Byte offsets within a record.
const OCCUPANCY: usize = 0;
const PIECES: usize = 8;
const TURN: usize = 24;
const SCORE: usize = 25;
const RESULT: usize = 27;
const FLAGS: usize = 28;
const RESERVED: usize = 29;

/// One record's bytes.
pub type RecordBytes = [u8; RECORD_BYTES];

/// What a record holds.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Record {
    pub board: Board,
    pub turn: Color,
    /// Centipawns for White, within ±`MAX_SCORE`; `None`: no search score.
    pub score: Option<i16>,
    /// `None`: no game result (the score alone is the label).
    pub result: Option<GameResult>,
}

/// A score in centipawns for White, clamped to ±`MAX_SCORE`.
pub fn clamp_score(cp: i32) -> i16 {
    cp.clamp(-i32::from(MAX_SCORE), i32::from(MAX_SCORE)) as i16
}

/// 0 to 11: White's pawn, knight, bishop, rook, queen, king, then Black's.
fn piece_code(piece: Piece) -> u8 {
    let colour = if piece.color.is_white() { 0 } else { 6 };
    colour + (piece.role as u8 - 1)
}

fn code_piece(code: u8) -> Result<Piece, String> {
    if code >= 12 {
        return Err(format!("piece code {code} is not a piece (0..=11)"));
    }
    Ok(Piece {
        color: Color::from_white(code < 6),
        role: Role::ALL[usize::from(code % 6)],
    })
}

fn result_code(result: GameResult) -> u8 {
    match result {
        GameResult::BlackWins => 0,
        GameResult::Draw => 1,
        GameResult::WhiteWins => 2,
    }
}

fn code_result(code: u8) -> Result<GameResult, String> {
    match code {
        0 => Ok(GameResult::BlackWins),
        1 => Ok(GameResult::Draw),
        2 => Ok(GameResult::WhiteWins),
        _ => Err(format!("result {code} is not 0, 1 or 2")),
    }
}

impl Record {
    /// The record of a position.
    pub fn of(pos: &Chess, score: Option<i16>, result: Option<GameResult>) -> Record {
        Record {
            board: pos.board().clone(),
            turn: pos.turn(),
            score,
            result,
        }
    }

    /// The record as bytes; refused when it has more than 32 pieces, a
    /// score beyond ±`MAX_SCORE`, or neither a score nor a result.
    pub fn pack(&self) -> Result<RecordBytes, String> {
        let occupied = self.board.occupied();
        if occupied.count() > MAX_PIECES {
            return Err(format!(
                "{} pieces, more than the {MAX_PIECES} a record holds",
                occupied.count()
            ));
        }
        if self.score.is_none() && self.result.is_none() {
            return Err("neither a score nor a result".into());
        }
        let score = self.score.unwrap_or(0);
        if score.abs() > MAX_SCORE {
            return Err(format!("score {score} is beyond ±{MAX_SCORE}"));
        }
        let mut bytes = [0u8; RECORD_BYTES];
        bytes[OCCUPANCY..PIECES].copy_from_slice(&occupied.0.to_le_bytes());
        for (i, square) in occupied.into_iter().enumerate() {
            if let Some(piece) = self.board.piece_at(square) {
                bytes[PIECES + i / 2] |= piece_code(piece) << (4 * (i % 2));
            }
        }
        bytes[TURN] = u8::from(!self.turn.is_white());
        bytes[SCORE..RESULT].copy_from_slice(&score.to_le_bytes());
        bytes[RESULT] = self.result.map_or(0, result_code);
        bytes[FLAGS] = self.flags();
        Ok(bytes)
    }

    /// The flag bits of what the record lacks.
    fn flags(&self) -> u8 {
        let mut flags = 0;
        if self.score.is_none() {
            flags |= FLAG_NO_SCORE;
        }
        if self.result.is_none() {
            flags |= FLAG_NO_RESULT;
        }
        flags
    }

    /// Reads a record, checking every field (unused bits must be zero).
    pub fn unpack(bytes: &RecordBytes) -> Result<Record, String> {
        let occupied = Bitboard(u64::from_le_bytes(field(bytes, OCCUPANCY)));
        let count = occupied.count();
        if count > MAX_PIECES {
            return Err(format!("{count} squares occupied, more than {MAX_PIECES}"));
        }
        let mut board = Board::empty();
        for (i, square) in occupied.into_iter().enumerate() {
            board.set_piece_at(square, code_piece(nibble(bytes, i))?);
        }
        if (count..MAX_PIECES).any(|i| nibble(bytes, i) != 0) {
            return Err("piece codes beyond the occupied squares are not zero".into());
        }
        let turn = match bytes[TURN] {
            0 => Color::White,
            1 => Color::Black,
            t => return Err(format!("side to move {t} is not 0 or 1")),
        };
        let flags = bytes[FLAGS];
        if flags & !(FLAG_NO_SCORE | FLAG_NO_RESULT) != 0 {
            return Err(format!("unknown flags {flags:#04x}"));
        }
        if bytes[RESERVED..].iter().any(|&b| b != 0) {
            return Err("reserved bytes are not zero".into());
        }
        let raw_score = i16::from_le_bytes(field(bytes, SCORE));
        let score = optional(flags & FLAG_NO_SCORE == 0, raw_score, "score")?;
        if raw_score.abs() > MAX_SCORE {
            return Err(format!("score {raw_score} is beyond ±{MAX_SCORE}"));
        }
        let result = match optional(flags & FLAG_NO_RESULT == 0, bytes[RESULT], "result")? {
            Some(code) => Some(code_result(code)?),
            None => None,
        };
        if score.is_none() && result.is_none() {
            return Err("neither a score nor a result".into());
        }
        Ok(Record {
            board,
            turn,
            score,
            result,
        })
    }

    /// The position (no castling rights, no en passant square, clocks at
    /// their start: a record keeps none of them), if it is a legal one.
    pub fn position(&self) -> Result<Chess, String> {
        let mut setup = Setup::empty();
        setup.board = self.board.clone();
        setup.turn = self.turn;
        Chess::from_setup(setup, CastlingMode::Standard)
            .map_err(|e| format!("not a legal position: {e}"))
    }
}

/// `N` bytes of a record from `at`.
fn field<const N: usize>(bytes: &RecordBytes, at: usize) -> [u8; N] {
    let mut out = [0u8; N];
    out.copy_from_slice(&bytes[at..at + N]);
    out
}

/// The code of the `i`th piece (in square order).
fn nibble(bytes: &RecordBytes, i: usize) -> u8 {
    (bytes[PIECES + i / 2] >> (4 * (i % 2))) & 0xf
}

/// `Some(value)` when `present`; a value flagged absent must be zero.
fn optional<T: Default + PartialEq>(
    present: bool,
    value: T,
    name: &str,
) -> Result<Option<T>, String> {
    if present {
        Ok(Some(value))
    } else if value == T::default() {
        Ok(None)
    } else {
        Err(format!("a {name} flagged absent is not zero"))
    }
}

/// The number of records in a file of `len` bytes; refused unless it is
/// the header and whole records.
pub fn record_count(len: u64) -> Result<u64, String> {
    let body = len.checked_sub(HEADER_BYTES as u64);
    match body {
        Some(b) if b % RECORD_BYTES as u64 == 0 => Ok(b / RECORD_BYTES as u64),
        _ => Err(format!(
            "{len} bytes is not the {HEADER_BYTES}-byte header and whole \
             {RECORD_BYTES}-byte records (a truncated file?)"
        )),
    }
}

/// Does `path` name a binary data file: a `.bin` name or the magic at its start?
pub fn is_packed_file(path: &Path) -> bool {
    if path.extension().is_some_and(|e| e == "bin") {
        return true;
    }
    let mut head = [0u8; HEADER_BYTES];
    stockman::files::open_regular(path, MAX_FILE_BYTES)
        .and_then(|mut f| f.read_exact(&mut head).map_err(|e| e.to_string()))
        .is_ok_and(|()| head == MAGIC)
}

/// Writes records to a data file through `NAME.partial` (an existing file
/// is replaced only by a finished one).
pub struct PackedWriter {
    out: PartialFile,
    path: PathBuf,
    records: u64,
}

impl PackedWriter {
    pub fn create(path: &Path) -> Result<PackedWriter, String> {
        let mut writer = PackedWriter {
            out: PartialFile::create(path)?,
            path: path.to_path_buf(),
            records: 0,
        };
        writer.write_bytes(&MAGIC)?;
        Ok(writer)
    }

    /// Goes on writing the `NAME.partial` an unfinished run left, cut to
    /// its first `bytes` (the magic and whole records); it is kept when
    /// dropped unfinished.
    pub fn resume(path: &Path, bytes: u64) -> Result<PackedWriter, String> {
        let records =
            record_count(bytes).map_err(|e| format!("{}: {e}", partial_path(path).display()))?;
        Ok(PackedWriter {
            out: PartialFile::resume(path, bytes)?,
            path: path.to_path_buf(),
            records,
        })
    }

    /// Leaves `NAME.partial` in place if dropped unfinished.
    pub fn keep_when_unfinished(&mut self) {
        self.out.keep_when_unfinished();
    }

    /// Writes everything so far through to the disk; returns the bytes written.
    pub fn sync(&mut self) -> Result<u64, String> {
        self.out.sync()
    }

    fn write_bytes(&mut self, bytes: &[u8]) -> Result<(), String> {
        self.out
            .write_all(bytes)
            .map_err(|e| format!("writing {}: {e}", self.path.display()))
    }

    /// Appends one record.
    pub fn write(&mut self, record: &Record) -> Result<(), String> {
        let bytes = record.pack()?;
        self.write_bytes(&bytes)?;
        self.records += 1;
        Ok(())
    }

    pub fn records(&self) -> u64 {
        self.records
    }

    pub fn flush(&mut self) -> Result<(), String> {
        self.out
            .flush()
            .map_err(|e| format!("writing {}: {e}", self.path.display()))
    }

    /// Renames the finished file into place; returns the records written.
    pub fn finish(self) -> Result<u64, String> {
        self.out.finish()?;
        Ok(self.records)
    }
}

/// Reads a data file in chunks of at most `chunk_records` records, calling
/// `f` with the index of each chunk's first record and its bytes (whole
/// records); returns the number of records. The magic and the length are
/// checked before the first chunk.
pub fn for_each_chunk(
    path: &Path,
    chunk_records: usize,
    mut f: impl FnMut(u64, &[u8]) -> Result<(), String>,
) -> Result<u64, String> {
    let shown = path.display();
    let mut file = stockman::files::open_regular(path, MAX_FILE_BYTES)?;
    let len = file
        .metadata()
        .map_err(|e| format!("cannot read {shown}: {e}"))?
        .len();
    let mut head = [0u8; HEADER_BYTES];
    if len < HEADER_BYTES as u64 || file.read_exact(&mut head).is_err() || head != MAGIC {
        return Err(format!(
            "{shown} is not a Stockman data file (it does not begin with {})",
            String::from_utf8_lossy(&MAGIC)
        ));
    }
    let count = record_count(len).map_err(|e| format!("{shown}: {e}"))?;
    let mut buffer = vec![0u8; chunk_records.max(1) * RECORD_BYTES];
    let mut done = 0u64;
    while done < count {
        let n = (count - done).min(chunk_records.max(1) as u64) as usize;
        let chunk = &mut buffer[..n * RECORD_BYTES];
        file.read_exact(chunk)
            .map_err(|e| format!("cannot read {shown}: {e}"))?;
        f(done, chunk)?;
        done += n as u64;
    }
    Ok(count)
}

/// Where record `index` is, for messages: `record N (byte B)`, from 1.
pub fn record_place(index: u64) -> String {
    let byte = HEADER_BYTES as u64 + index * RECORD_BYTES as u64;
    format!("record {} (byte {byte})", index + 1)
}

/// Hands `f` every record of a file in order, unpacked; a bad record ends
/// the read with its place in the file.
pub fn for_each_record(path: &Path, mut f: impl FnMut(Record)) -> Result<u64, String> {
    for_each_chunk(path, 4096, |first, bytes| {
        for (i, chunk) in bytes.chunks_exact(RECORD_BYTES).enumerate() {
            let record = Record::unpack(chunk_array(chunk)?).map_err(|e| {
                format!(
                    "{}: {}: {e}",
                    path.display(),
                    record_place(first + i as u64)
                )
            })?;
            f(record);
        }
        Ok(())
    })
}

/// Every record of a small file (tests, small tools).
pub fn read_all(path: &Path) -> Result<Vec<Record>, String> {
    let mut records = Vec::new();
    for_each_record(path, |r| records.push(r))?;
    Ok(records)
}

/// A 32-byte slice as a record's bytes.
pub fn chunk_array(chunk: &[u8]) -> Result<&RecordBytes, String> {
    chunk
        .try_into()
        .map_err(|_| format!("{} bytes are not a record", chunk.len()))
}

#[cfg(test)]
mod tests {
    use super::*;

    /// An empty directory of its own for a test that writes files.
    fn scratch(name: &str) -> crate::scratch::Scratch {
        crate::scratch::Scratch::new(&format!("lab-{name}"))
    }
    use shakmaty::Square;
    use stockman::board::parse_fen;

    const BENCH: &str = include_str!("../../../positions/bench.epd");

    fn positions() -> Vec<Chess> {
        stockman::positions::parse_epd_positions(BENCH)
            .unwrap()
            .into_iter()
            .map(|p| p.pos)
            .collect()
    }

    fn sample_record() -> Record {
        let (pos, _) = parse_fen("4k3/8/8/3q4/8/8/3R4/4K3 b - - 0 1", false).unwrap();
        Record::of(&pos, Some(-250), Some(GameResult::Draw))
    }

    #[test]
    fn records_round_trip() {
        let results = [
            Some(GameResult::WhiteWins),
            Some(GameResult::Draw),
            Some(GameResult::BlackWins),
            None,
        ];
        let all = positions();
        assert!(all.len() >= 50);
        for (i, pos) in all.iter().enumerate() {
            let score = if i % 5 == 4 {
                None
            } else {
                Some(clamp_score(i as i32 * 137 - 3500))
            };
            let result = if score.is_none() {
                Some(GameResult::Draw)
            } else {
                results[i % 4]
            };
            let record = Record::of(pos, score, result);
            let bytes = record.pack().unwrap();
            let back = Record::unpack(&bytes).unwrap();
            assert_eq!(back, record, "position {i}");
            let again = back.position().unwrap();
            assert_eq!(again.board(), pos.board());
            assert_eq!(again.turn(), pos.turn());
        }
    }

    #[test]
    fn the_layout_is_as_documented() {
        let bytes = sample_record().pack().unwrap();
        // d2 (11), e1 (4), d5 (35), e8 (60).
        let occupancy = (1u64 << 4) | (1 << 11) | (1 << 35) | (1 << 60);
        assert_eq!(bytes[..8], occupancy.to_le_bytes());
        // In square order: White king (5), White rook (3), Black queen (10), Black king (11).
        assert_eq!(bytes[8..10], [0x35, 0xba]);
        assert!(bytes[10..24].iter().all(|&b| b == 0));
        assert_eq!(bytes[24], 1);
        assert_eq!(i16::from_le_bytes([bytes[25], bytes[26]]), -250);
        assert_eq!(bytes[27..], [1, 0, 0, 0, 0]);
        assert_eq!(clamp_score(-40_000), -MAX_SCORE);
        assert_eq!(clamp_score(123), 123);
    }

    #[test]
    fn bad_records_are_refused() {
        let good = sample_record().pack().unwrap();
        let refused = |edit: &dyn Fn(&mut RecordBytes), says: &str| {
            let mut bytes = good;
            edit(&mut bytes);
            let err = Record::unpack(&bytes).unwrap_err();
            assert!(err.contains(says), "{says}: {err}");
        };
        refused(&|b| b[8] = 0x3c, "piece code 12");
        refused(&|b| b[9] = 0xfa, "piece code 15");
        refused(&|b| b[10] = 1, "beyond the occupied squares");
        refused(
            &|b| b[..8].copy_from_slice(&u64::MAX.to_le_bytes()),
            "64 squares",
        );
        refused(&|b| b[24] = 2, "side to move 2");
        refused(&|b| b[27] = 3, "result 3");
        refused(&|b| b[28] = 4, "unknown flags");
        refused(&|b| b[28] = 3, "flagged absent");
        refused(&|b| b[31] = 1, "reserved");
        refused(
            &|b| b[25..27].copy_from_slice(&3001i16.to_le_bytes()),
            "beyond",
        );
        refused(&|b| b[28] = FLAG_NO_SCORE, "score flagged absent");
        // More than 32 pieces: refused when packing and when unpacking.
        let mut crowded = sample_record();
        for i in 16..48 {
            let piece = Piece {
                color: Color::White,
                role: Role::Knight,
            };
            crowded.board.set_piece_at(Square::new(i), piece);
        }
        assert!(crowded.pack().unwrap_err().contains("more than the 32"));
        let occupied = crowded.board.occupied().0;
        refused(
            &|b| b[..8].copy_from_slice(&occupied.to_le_bytes()),
            "more than 32",
        );
        let neither = Record {
            score: None,
            result: None,
            ..sample_record()
        };
        assert!(neither.pack().is_err());
    }

    #[test]
    fn files_round_trip_and_bad_files_are_refused() {
        let dir = scratch("packed-files");
        let path = dir.join("d.bin");
        let records: Vec<Record> = positions()
            .iter()
            .map(|p| Record::of(p, Some(17), Some(GameResult::WhiteWins)))
            .collect();
        let mut w = PackedWriter::create(&path).unwrap();
        for r in &records {
            w.write(r).unwrap();
        }
        assert_eq!(w.finish().unwrap(), records.len() as u64);
        let bytes = std::fs::read(&path).unwrap();
        assert_eq!(bytes.len(), HEADER_BYTES + RECORD_BYTES * records.len());
        assert_eq!(read_all(&path).unwrap(), records);
        assert!(is_packed_file(&path));
        // Chunks cover every record once, in order.
        let mut seen = Vec::new();
        for_each_chunk(&path, 7, |first, chunk| {
            seen.push((first, chunk.len() / RECORD_BYTES));
            Ok(())
        })
        .unwrap();
        assert_eq!(seen.iter().map(|s| s.1).sum::<usize>(), records.len());
        assert!(seen.windows(2).all(|w| w[0].0 + w[0].1 as u64 == w[1].0));

        let write = |name: &str, content: &[u8]| {
            let p = dir.join(name);
            std::fs::write(&p, content).unwrap();
            p
        };
        let mut bad_magic = bytes.clone();
        bad_magic[7] = b'2';
        let err = read_all(&write("magic.bin", &bad_magic)).unwrap_err();
        assert!(err.contains("not a Stockman data file"), "{err}");
        assert!(!is_packed_file(&write("magic.dat", &bad_magic)));
        let err = read_all(&write("short.bin", &bytes[..bytes.len() - 5])).unwrap_err();
        assert!(err.contains("truncated"), "{err}");
        assert!(read_all(&write("tiny.bin", b"STK")).is_err());
        let mut bad_piece = bytes.clone();
        bad_piece[HEADER_BYTES + RECORD_BYTES + 8] = 0xff;
        let err = read_all(&write("piece.bin", &bad_piece)).unwrap_err();
        assert!(
            err.contains("record 2 (byte 40)") && err.contains("piece code 15"),
            "{err}"
        );
        assert_eq!(read_all(&write("empty.bin", &MAGIC)).unwrap(), vec![]);
        assert_eq!(record_count(8 + 64).unwrap(), 2);
    }

    #[test]
    fn a_kept_file_resumes_after_its_last_whole_record() {
        let dir = scratch("packed-resume");
        let path = dir.join("r.bin");
        let records: Vec<Record> = positions()
            .iter()
            .take(5)
            .map(|p| Record::of(p, Some(-3), Some(GameResult::Draw)))
            .collect();
        let good = {
            let mut w = PackedWriter::create(&path).unwrap();
            w.keep_when_unfinished();
            for r in &records[..2] {
                w.write(r).unwrap();
            }
            let good = w.sync().unwrap();
            w.write(&records[2]).unwrap();
            good
        };
        assert_eq!(good, (HEADER_BYTES + 2 * RECORD_BYTES) as u64);
        let err = PackedWriter::resume(&path, good - 1)
            .err()
            .unwrap_or_default();
        assert!(err.contains("whole"), "{err}");
        let mut w = PackedWriter::resume(&path, good).unwrap();
        assert_eq!(w.records(), 2);
        for r in &records[3..] {
            w.write(r).unwrap();
        }
        assert_eq!(w.finish().unwrap(), 4);
        let kept: Vec<Record> = [&records[..2], &records[3..]].concat();
        assert_eq!(read_all(&path).unwrap(), kept);
    }
}
