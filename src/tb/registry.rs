//! The set of tables of one rule set in one folder: each loaded the first time it is needed, read once,
//! and kept; a missing or damaged file is reported once and then left alone.

use super::file::{self, Table};
use super::material::Material;
use super::pos::TbPos;
use super::value::Stored;
use crate::board::Rules;
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::{Arc, OnceLock};

/// Slots for every canonical material code (3 states for each of 10 counts).
const CODES: usize = 59_049;

/// The tables of one rule set, in its folder under a `TablebasePath` folder.
pub struct Tablebases {
    root: PathBuf,
    dir: PathBuf,
    rules: &'static Rules,
    tables: Vec<OnceLock<Option<Arc<Table>>>>,
    hits: AtomicU64,
}

impl std::fmt::Debug for Tablebases {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "Tablebases({}, {})", self.dir.display(), self.rules.short_name())
    }
}

/// An entry together with what kind of table it came from.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub struct Entry {
    /// The stored value for the side to move.
    pub stored: Stored,
    /// Whether it is a distance to mate (a bare-king table) rather than to zeroing.
    pub dtm: bool,
}

impl Tablebases {
    /// The tables of `rules` under the folder `root` (`super::folder`); nothing is read yet.
    pub fn new(root: impl Into<PathBuf>, rules: &'static Rules) -> Tablebases {
        let root = root.into();
        let dir = super::folder(&root, rules);
        Tablebases { root, dir, rules, tables: (0..CODES).map(|_| OnceLock::new()).collect(), hits: AtomicU64::new(0) }
    }

    /// The folder given (`TablebasePath`), which holds every rule set's tables.
    pub fn root(&self) -> &Path {
        &self.root
    }

    /// The folder of this rule set's tables.
    pub fn dir(&self) -> &Path {
        &self.dir
    }

    /// The rule set the tables are built under.
    pub fn rules(&self) -> &'static Rules {
        self.rules
    }

    /// How many table files the rule set's folder holds (0 when it cannot be read).
    pub fn files(&self) -> usize {
        let ext = format!(".{}", file::EXTENSION);
        std::fs::read_dir(&self.dir)
            .map(|entries| {
                entries.filter_map(|e| e.ok()).filter(|e| e.file_name().to_string_lossy().ends_with(&ext)).count()
            })
            .unwrap_or(0)
    }

    /// The file that holds `m`'s table.
    pub fn path_of(&self, m: &Material) -> PathBuf {
        self.dir.join(format!("{}.{}", m.name(), file::EXTENSION))
    }

    /// Makes a freshly generated table available (the generator's own lookups).
    pub fn insert(&self, table: Table) {
        let code = table.layout.material.code();
        let _ = self.tables[code].set(Some(Arc::new(table)));
    }

    /// The table of canonical material `m`, loading it on first use.
    pub fn table(&self, m: &Material) -> Option<Arc<Table>> {
        if m.men() > super::pos::MAX_MEN {
            return None;
        }
        self.tables[m.code()]
            .get_or_init(|| {
                let path = self.path_of(m);
                match file::read(&path, m, self.rules) {
                    Ok(t) => Some(Arc::new(t)),
                    Err(e) => {
                        log::warn!("tablebase {}: {e}; playing on without it", path.display());
                        None
                    }
                }
            })
            .clone()
    }

    /// The entry for position `p` (kings in slots 0 and 1, the rest in any order), or
    /// None when its table is missing or a pawn stands behind its third rank.
    pub fn lookup(&self, p: &TbPos) -> Option<Entry> {
        let m = Material::from_pieces(p.piece[..p.n].iter().copied());
        if m.men() == 2 {
            return Some(Entry { stored: Stored::Draw, dtm: true });
        }
        let (canon, flip) = m.canonical();
        let t = self.table(&canon)?;
        let q = t.layout.arrange(p, flip)?;
        let idx = t.layout.encode(&q)?;
        self.hits.fetch_add(1, Ordering::Relaxed);
        Some(Entry { stored: t.get(idx), dtm: t.layout.is_dtm() })
    }

    /// How many lookups found an entry since the tables were opened.
    pub fn hits(&self) -> u64 {
        self.hits.load(Ordering::Relaxed)
    }
}
