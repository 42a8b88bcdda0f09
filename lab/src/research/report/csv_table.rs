//! The lab's CSV files, written by the `csv` crate: a field holding a comma,
//! a quote or a line break is quoted as RFC 4180 says instead of shifting
//! every later column, a row of the wrong length is caught; plain fields
//! come out exactly as the hand-formatted rows did.

/// A CSV text in memory: a header, then rows of as many fields.
pub struct CsvTable {
    writer: csv::Writer<Vec<u8>>,
}

impl CsvTable {
    pub fn new<I, T>(header: I) -> CsvTable
    where
        I: IntoIterator<Item = T>,
        T: AsRef<[u8]>,
    {
        let mut table = CsvTable {
            writer: csv::Writer::from_writer(Vec::new()),
        };
        table.row(header);
        table
    }

    /// One row; every row has as many fields as the header.
    pub fn row<I, T>(&mut self, fields: I)
    where
        I: IntoIterator<Item = T>,
        T: AsRef<[u8]>,
    {
        self.writer
            .write_record(fields)
            .expect("a row of as many fields as the header, written to memory");
    }

    /// The text, each row ending in `\n`.
    pub fn into_text(self) -> String {
        let bytes = self
            .writer
            .into_inner()
            .expect("writing to memory cannot fail");
        String::from_utf8(bytes).expect("fields from UTF-8 strings")
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn plain_fields_as_they_are_others_quoted() {
        let mut t = CsvTable::new(["a", "b", "c"]);
        t.row(["1", "8/8/8/8/8/8/8/K6k w - - 0 1", ""]);
        t.row(["-5..5", "0,1", "say \"hi\""]);
        assert_eq!(
            t.into_text(),
            "a,b,c\n1,8/8/8/8/8/8/8/K6k w - - 0 1,\n-5..5,\"0,1\",\"say \"\"hi\"\"\"\n"
        );
    }

    #[test]
    #[should_panic(expected = "as many fields")]
    fn a_short_row_is_a_bug() {
        let mut t = CsvTable::new(["a", "b"]);
        t.row(["1"]);
    }
}
