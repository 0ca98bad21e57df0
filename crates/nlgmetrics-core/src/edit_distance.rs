//! Uniform Levenshtein edit operations on token ids, chosen exactly as RapidFuzz 3.x
//! (`rapidfuzz::levenshtein_editops`, the C++ core behind
//! `rapidfuzz.distance.Levenshtein.opcodes`, which jiwer 4 calls) chooses them.
//!
//! Every optimal alignment has the same distance, but hits/substitutions/deletions/
//! insertions differ between optimal alignments, so WER breakdowns only match jiwer if
//! the *same* alignment is picked. RapidFuzz picks it by:
//! 1. stripping the common prefix and suffix (always "equal");
//! 2. above a size threshold, splitting the problem at the middle row of `s2` with
//!    Hirschberg's method (the split column is the first minimum of the banded
//!    bit-parallel rows) and recursing — each level strips affixes again;
//! 3. otherwise computing Hyyrö's bit-parallel delta matrix (single word, small diagonal
//!    band, or Ukkonen-banded blocks) and backtracing from the end, preferring a
//!    deletion (VP bit), then an insertion (VN bit of the row above), then the diagonal.
//!
//! The band limits decide which bits exist, and bits outside the band read as RapidFuzz's
//! matrix defaults, so the banding is reproduced operation for operation.

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum EditKind {
    Replace,
    Insert,
    Delete,
}

/// One edit: `src_pos` indexes `s1` (the reference), `dest_pos` indexes `s2`.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct EditOp {
    pub kind: EditKind,
    pub src_pos: usize,
    pub dest_pos: usize,
}

const DUMMY: EditOp = EditOp { kind: EditKind::Replace, src_pos: 0, dest_pos: 0 };
const WORD: usize = 64;

/// Row-major bit matrix with a column offset per row (RapidFuzz `ShiftedBitMatrix`).
struct ShiftedBits {
    cols: usize,
    data: Vec<u64>,
    offsets: Vec<isize>,
}

impl ShiftedBits {
    fn new(rows: usize, cols: usize, fill: u64) -> Self {
        Self { cols, data: vec![fill; rows * cols], offsets: vec![0; rows] }
    }

    #[inline]
    fn set(&mut self, row: usize, word: usize, v: u64) {
        // Flat indexing like the C++ (a word past the row lands in the next row).
        if let Some(x) = self.data.get_mut(row * self.cols + word) {
            *x = v;
        }
    }

    #[inline]
    fn test_bit(&self, row: usize, col: usize) -> bool {
        let off = self.offsets[row];
        let col = if off < 0 {
            col + (-off) as usize
        } else if col >= off as usize {
            col - off as usize
        } else {
            return false; // left of the band
        };
        match self.data.get(row * self.cols + col / WORD) {
            Some(w) => (w >> (col % WORD)) & 1 == 1,
            None => false,
        }
    }
}

struct Matrix {
    vp: ShiftedBits,
    vn: ShiftedBits,
    dist: usize,
}

/// Bit masks of the positions of every symbol of `s1`, 64 positions per block, one row
/// per symbol `s1` holds (rows are zeroed per call: only `s1`'s own symbols, not every id
/// below the largest, and no allocation per symbol). Symbols map to rows through a flat
/// slot table when the ids are small, else a hash map (characters of large code points).
struct BlockPm {
    words: usize,
    slot: Vec<u32>,
    map: rustc_hash::FxHashMap<u32, u32>,
    rows: Vec<u64>,
    /// the row of a symbol `s1` does not hold
    zeros: Vec<u64>,
}

const NO_ROW: u32 = u32::MAX;

impl BlockPm {
    fn new(s1: &[u32]) -> Self {
        let words = s1.len().div_ceil(WORD);
        let max_id = s1.iter().copied().max().unwrap_or(0) as usize;
        let mut pm = Self { words, slot: Vec::new(), map: Default::default(), rows: Vec::new(), zeros: vec![0; words] };
        let mut n_rows = 0u32;
        // a slot table costs 4 bytes an id: word ids are dense, ASCII-range characters small
        if max_id < 8 * s1.len() + 4096 {
            pm.slot = vec![NO_ROW; max_id + 1];
            for &c in s1 {
                let k = &mut pm.slot[c as usize];
                if *k == NO_ROW {
                    *k = n_rows;
                    n_rows += 1;
                }
            }
        } else {
            for &c in s1 {
                pm.map.entry(c).or_insert_with(|| {
                    n_rows += 1;
                    n_rows - 1
                });
            }
        }
        pm.rows = vec![0; n_rows as usize * words];
        for (i, &c) in s1.iter().enumerate() {
            let k = pm.row_index(c) as usize;
            pm.rows[k * words + i / WORD] |= 1u64 << (i % WORD);
        }
        pm
    }

    #[inline]
    fn row_index(&self, c: u32) -> u32 {
        if !self.slot.is_empty() {
            return self.slot.get(c as usize).copied().unwrap_or(NO_ROW);
        }
        self.map.get(&c).copied().unwrap_or(NO_ROW)
    }

    /// The masks of symbol `c`, one u64 per block (looked up once per row of `s2`).
    #[inline]
    fn row(&self, c: u32) -> &[u64] {
        match self.row_index(c) {
            NO_ROW => &self.zeros,
            k => &self.rows[k as usize * self.words..(k as usize + 1) * self.words],
        }
    }

    #[inline]
    fn get(&self, word: usize, c: u32) -> u64 {
        self.row(c)[word]
    }
}

fn shr64(a: u64, shift: isize) -> u64 {
    if shift < 64 {
        a.wrapping_shr(shift as u32)
    } else {
        0
    }
}

/// Hyyrö 2003, one word (`s1.len() <= 64`), recording the matrix.
fn hyrroe_single(s1: &[u32], s2: &[u32]) -> Matrix {
    let pm = BlockPm::new(s1);
    let mut vp = !0u64;
    let mut vn = 0u64;
    let mut m = Matrix {
        vp: ShiftedBits::new(s2.len(), 1, !0),
        vn: ShiftedBits::new(s2.len(), 1, 0),
        dist: s1.len(),
    };
    let mask = 1u64 << (s1.len() - 1);
    for (i, &c) in s2.iter().enumerate() {
        crate::interrupt::check_every(i);
        let x = pm.get(0, c);
        let d0 = (((x & vp).wrapping_add(vp)) ^ vp) | x | vn;
        let mut hp = vn | !(d0 | vp);
        let mut hn = d0 & vp;
        m.dist += (hp & mask != 0) as usize;
        m.dist -= (hn & mask != 0) as usize;
        hp = (hp << 1) | 1;
        hn <<= 1;
        vp = hn | !(d0 | hp);
        vn = hp & d0;
        m.vp.set(i, 0, vp);
        m.vn.set(i, 0, vn);
    }
    m
}

/// Hyyrö 2003 restricted to a diagonal band of width `2*max+1 <= 64`, recording the matrix.
fn hyrroe_small_band(s1: &[u32], s2: &[u32], max: usize) -> Matrix {
    let mut vp: u64 = !0u64 << (64 - max - 1);
    let mut vn: u64 = 0;
    let mut m = Matrix {
        vp: ShiftedBits::new(s2.len(), 1, !0),
        vn: ShiftedBits::new(s2.len(), 1, 0),
        dist: max,
    };
    let start_offset = max as isize + 2 - 64;
    for i in 0..s2.len() {
        m.vp.offsets[i] = start_offset + i as isize;
        m.vn.offsets[i] = start_offset + i as isize;
    }
    let diagonal_mask = 1u64 << 63;
    let mut horizontal_mask = 1u64 << 62;
    let break_score = (2 * max + s2.len()).wrapping_sub(s1.len());
    // symbol -> (position of its last update, bit mask aligned to that position)
    let mut pm: rustc_hash::FxHashMap<u32, (isize, u64)> = Default::default();
    let mut it1 = 0usize;
    for j in -(max as isize)..0 {
        let x = pm.entry(s1[it1]).or_insert((0, 0));
        x.1 = shr64(x.1, j - x.0) | (1u64 << 63);
        x.0 = j;
        it1 += 1;
    }
    let lookup = |pm: &rustc_hash::FxHashMap<u32, (isize, u64)>, c: u32, i: usize| -> u64 {
        let (first, bits) = pm.get(&c).copied().unwrap_or((0, 0));
        shr64(bits, i as isize - first)
    };
    let mut i = 0usize;
    let upto = s1.len() - max;
    while i < upto {
        {
            let x = pm.entry(s1[it1]).or_insert((0, 0));
            x.1 = shr64(x.1, i as isize - x.0) | (1u64 << 63);
            x.0 = i as isize;
        }
        let pm_j = lookup(&pm, s2[i], i);
        let x = pm_j;
        let d0 = (((x & vp).wrapping_add(vp)) ^ vp) | x | vn;
        let hp = vn | !(d0 | vp);
        let hn = d0 & vp;
        m.dist += (d0 & diagonal_mask == 0) as usize;
        if m.dist > break_score {
            m.dist = max + 1;
            return m;
        }
        vp = hn | !((d0 >> 1) | hp);
        vn = (d0 >> 1) & hp;
        m.vp.set(i, 0, vp);
        m.vn.set(i, 0, vn);
        i += 1;
        it1 += 1;
    }
    while i < s2.len() {
        if it1 < s1.len() {
            let x = pm.entry(s1[it1]).or_insert((0, 0));
            x.1 = shr64(x.1, i as isize - x.0) | (1u64 << 63);
            x.0 = i as isize;
            it1 += 1;
        }
        let pm_j = lookup(&pm, s2[i], i);
        let x = pm_j;
        let d0 = (((x & vp).wrapping_add(vp)) ^ vp) | x | vn;
        let hp = vn | !(d0 | vp);
        let hn = d0 & vp;
        m.dist += (hp & horizontal_mask != 0) as usize;
        m.dist = m.dist.wrapping_sub((hn & horizontal_mask != 0) as usize);
        horizontal_mask >>= 1;
        if m.dist > break_score {
            m.dist = max + 1;
            return m;
        }
        vp = hn | !((d0 >> 1) | hp);
        vn = (d0 >> 1) & hp;
        m.vp.set(i, 0, vp);
        m.vn.set(i, 0, vn);
        i += 1;
    }
    if m.dist > max {
        m.dist = max + 1;
    }
    m
}

/// The row recorded for Hirschberg's split.
struct BitRow {
    first_block: usize,
    last_block: usize,
    prev_score: usize,
    vecs: Vec<(u64, u64)>,
}

enum BlockOut {
    Matrix(Matrix),
    Row(BitRow),
    /// The distance exceeds `max`.
    TooFar,
    /// Distance only (row mode never gets here).
    Dist,
}

/// Hyyrö 2003 over 64-bit blocks with Ukkonen's band (RapidFuzz
/// `levenshtein_hyrroe2003_block`): records the matrix, or stops at `stop_row`.
fn hyrroe_block(pm: &BlockPm, s1: &[u32], s2: &[u32], mut max: usize, record_matrix: bool, stop_row: Option<usize>) -> BlockOut {
    if max < s1.len().abs_diff(s2.len()) {
        return BlockOut::TooFar;
    }
    let words = pm.words;
    let mut vecs: Vec<(u64, u64)> = vec![(!0u64, 0u64); words];
    let mut scores: Vec<usize> = vec![0; words];
    let last = 1u64 << ((s1.len() - 1) % WORD);
    for (i, s) in scores.iter_mut().enumerate().take(words - 1) {
        *s = (i + 1) * WORD;
    }
    scores[words - 1] = s1.len();

    let mut matrix = if record_matrix {
        let full_band = s1.len().min(2usize.saturating_mul(max).saturating_add(1));
        let full_band_words = words.min(full_band / WORD + 2);
        Some(Matrix {
            vp: ShiftedBits::new(s2.len(), full_band_words, !0),
            vn: ShiftedBits::new(s2.len(), full_band_words, 0),
            dist: 0,
        })
    } else {
        None
    };

    max = max.min(s1.len().max(s2.len()));
    let mut first_block = 0usize;
    let mut last_block: isize = (words.min(
        (max.min((max + s1.len() - s2.len()) / 2) + 1).div_ceil(WORD),
    ) as isize)
        - 1;
    let (len1, len2) = (s1.len() as isize, s2.len() as isize);
    let w = WORD as isize;

    let mut budget = crate::interrupt::Budget::default();
    for (row, &ch) in s2.iter().enumerate() {
        budget.spend(words);
        let mut hp_carry: u64 = 1;
        let mut hn_carry: u64 = 0;
        if let Some(m) = matrix.as_mut() {
            m.vp.offsets[row] = (first_block * WORD) as isize;
            m.vn.offsets[row] = (first_block * WORD) as isize;
        }
        let pm_row = pm.row(ch);
        let advance = |word: usize, vecs: &mut Vec<(u64, u64)>, hp_carry: &mut u64, hn_carry: &mut u64, matrix: &mut Option<Matrix>| -> isize {
            let pm_j = pm_row[word];
            let (vp, vn) = vecs[word];
            let x = pm_j | *hn_carry;
            let d0 = (((x & vp).wrapping_add(vp)) ^ vp) | x | vn;
            let mut hp = vn | !(d0 | vp);
            let mut hn = d0 & vp;
            let hp_carry_temp = *hp_carry;
            let hn_carry_temp = *hn_carry;
            if word < words - 1 {
                *hp_carry = hp >> 63;
                *hn_carry = hn >> 63;
            } else {
                *hp_carry = (hp & last != 0) as u64;
                *hn_carry = (hn & last != 0) as u64;
            }
            hp = (hp << 1) | hp_carry_temp;
            hn = (hn << 1) | hn_carry_temp;
            let nvp = hn | !(d0 | hp);
            let nvn = hp & d0;
            vecs[word] = (nvp, nvn);
            if let Some(m) = matrix.as_mut() {
                m.vp.set(row, word - first_block, nvp);
                m.vn.set(row, word - first_block, nvn);
            }
            *hp_carry as isize - *hn_carry as isize
        };
        let get_row_num = |word: usize| -> isize {
            if word + 1 == words {
                len1 - 1
            } else {
                ((word + 1) * WORD) as isize - 1
            }
        };

        let mut word = first_block as isize;
        while word <= last_block {
            let d = advance(word as usize, &mut vecs, &mut hp_carry, &mut hn_carry, &mut matrix);
            scores[word as usize] = (scores[word as usize] as isize + d) as usize;
            word += 1;
        }

        let lb = last_block as usize;
        max = (max as isize).min(
            scores[lb] as isize + (len2 - row as isize - 1).max(len1 - ((1 + lb as isize) * w - 1) - 1),
        ) as usize;

        if last_block + 1 < words as isize {
            let cond = (max as isize + 2 * w + row as isize + len1) - (scores[lb] as isize + 2 + len2);
            if get_row_num(lb) < cond {
                last_block += 1;
                let lb = last_block as usize;
                vecs[lb] = (!0u64, 0);
                let chars_in_block = if lb + 1 == words { (s1.len() - 1) % WORD + 1 } else { 64 };
                scores[lb] = scores[lb - 1] + chars_in_block - hp_carry as usize + hn_carry as usize;
                let d = advance(lb, &mut vecs, &mut hp_carry, &mut hn_carry, &mut matrix);
                scores[lb] = (scores[lb] as isize + d) as usize;
            }
        }

        while last_block >= first_block as isize {
            let lb = last_block as usize;
            let cond1 = scores[lb] < max + WORD;
            let cond = (max as isize + 2 * w + row as isize + len1 + 1) - (scores[lb] as isize + 2 + len2);
            let cond2 = get_row_num(lb) <= cond;
            if cond1 && cond2 {
                break;
            }
            last_block -= 1;
        }

        while first_block as isize <= last_block {
            let cond1 = scores[first_block] < max + WORD;
            let cond = (scores[first_block] as isize + len1 + row as isize) - (max as isize + len2);
            let cond2 = get_row_num(first_block) >= cond;
            if cond1 && cond2 {
                break;
            }
            first_block += 1;
        }

        if last_block < first_block as isize {
            return BlockOut::TooFar;
        }

        if stop_row == Some(row) {
            let prev_score = if first_block == 0 {
                row + 1
            } else {
                let relevant_bits = ((first_block + 1) * WORD).min(s1.len()) % WORD;
                let mut mask = !0u64;
                if relevant_bits != 0 {
                    mask >>= 64 - relevant_bits;
                }
                let (vp, vn) = vecs[first_block];
                scores[first_block] + (vn & mask).count_ones() as usize - (vp & mask).count_ones() as usize
            };
            return BlockOut::Row(BitRow { first_block, last_block: last_block as usize, prev_score, vecs });
        }
    }

    let mut dist = scores[words - 1];
    if dist > max {
        dist = max + 1;
    }
    match matrix {
        Some(mut m) => {
            m.dist = dist;
            BlockOut::Matrix(m)
        }
        None => BlockOut::Dist,
    }
}

fn ensure_len(ops: &mut Vec<EditOp>, n: usize) {
    if ops.len() < n {
        ops.resize(n, DUMMY);
    }
}

/// Backtrace (RapidFuzz `recover_alignment`): delete, then insert, then diagonal.
fn recover_alignment(ops: &mut Vec<EditOp>, s1: &[u32], s2: &[u32], m: &Matrix, src_pos: usize, dest_pos: usize, editop_pos: usize) {
    let mut dist = m.dist;
    let mut col = s1.len();
    let mut row = s2.len();
    ensure_len(ops, editop_pos + dist);
    let mut put = |dist: usize, kind: EditKind, col: usize, row: usize| {
        ops[editop_pos + dist] = EditOp { kind, src_pos: col + src_pos, dest_pos: row + dest_pos };
    };
    while row > 0 && col > 0 {
        if m.vp.test_bit(row - 1, col - 1) {
            dist -= 1;
            col -= 1;
            put(dist, EditKind::Delete, col, row);
        } else {
            row -= 1;
            if row > 0 && m.vn.test_bit(row - 1, col - 1) {
                dist -= 1;
                put(dist, EditKind::Insert, col, row);
            } else {
                col -= 1;
                if s1[col] != s2[row] {
                    dist -= 1;
                    put(dist, EditKind::Replace, col, row);
                }
            }
        }
    }
    while col > 0 {
        dist -= 1;
        col -= 1;
        put(dist, EditKind::Delete, col, row);
    }
    while row > 0 {
        dist -= 1;
        row -= 1;
        put(dist, EditKind::Insert, col, row);
    }
}

fn align(ops: &mut Vec<EditOp>, s1: &[u32], s2: &[u32], max: usize, src_pos: usize, dest_pos: usize, editop_pos: usize) {
    let max = max.min(s1.len().max(s2.len()));
    let full_band = s1.len().min(2 * max + 1);
    let m = if s1.is_empty() || s2.is_empty() {
        Matrix { vp: ShiftedBits::new(0, 0, 0), vn: ShiftedBits::new(0, 0, 0), dist: s1.len() + s2.len() }
    } else if s1.len() <= 64 {
        hyrroe_single(s1, s2)
    } else if full_band <= 64 {
        hyrroe_small_band(s1, s2, max)
    } else {
        match hyrroe_block(&BlockPm::new(s1), s1, s2, max, true, None) {
            BlockOut::Matrix(m) => m,
            _ => unreachable!("max is an upper bound of the distance"),
        }
    };
    if m.dist != 0 {
        recover_alignment(ops, s1, s2, &m, src_pos, dest_pos, editop_pos);
    }
}

fn bit_row(pm: &BlockPm, s1: &[u32], s2: &[u32], max: usize, stop_row: usize) -> Option<BitRow> {
    match hyrroe_block(pm, s1, s2, max, false, Some(stop_row)) {
        BlockOut::Row(r) => Some(r),
        _ => None,
    }
}

struct HirschbergPos {
    left_score: usize,
    right_score: usize,
    s1_mid: usize,
    s2_mid: usize,
}

/// RapidFuzz's split of the middle row of `s2`, computed in a band of `max`; a band too
/// narrow for the distance is widened and the split computed again (the match masks of
/// both directions are built once for all tries).
fn find_hirschberg_pos(s1: &[u32], s2: &[u32], mut max: usize) -> HirschbergPos {
    let r1: Vec<u32> = s1.iter().rev().copied().collect();
    let r2: Vec<u32> = s2.iter().rev().copied().collect();
    let (pm_s1, pm_r1) = (BlockPm::new(s1), BlockPm::new(&r1));
    loop {
        match split_in_band(s1, s2, &r1, &r2, &pm_s1, &pm_r1, max) {
            Ok(h) => return h,
            Err(wider) => max = wider,
        }
    }
}

/// The split if the band of `max` holds it, else `Err(a wider band)`: the sum of the
/// scores found when both rows reached the middle (a path's cost, so at least the
/// distance: the next try holds it), else twice the band.
#[allow(clippy::too_many_arguments)]
fn split_in_band(s1: &[u32], s2: &[u32], r1: &[u32], r2: &[u32], pm_s1: &BlockPm, pm_r1: &BlockPm, max: usize) -> Result<HirschbergPos, usize> {
    let mut hpos = HirschbergPos { left_score: 0, right_score: 0, s1_mid: 0, s2_mid: 0 };
    let left_size = s2.len() / 2;
    let right_size = s2.len() - left_size;
    hpos.s2_mid = left_size;
    let s1_len = s1.len();
    let mut best_score = usize::MAX;
    let Some(right_row) = bit_row(pm_r1, r1, r2, max, right_size - 1) else {
        return Err(max * 2);
    };
    let right_first_pos = right_row.first_block * 64;
    let right_last_pos = s1_len.min(right_row.last_block * 64 + 64);
    let mut right_scores = vec![0usize; right_last_pos - right_first_pos + 1];
    right_scores[0] = right_row.prev_score;
    for i in right_first_pos..right_last_pos {
        let (vp, vn) = right_row.vecs[i / 64];
        let bit = 1u64 << (i % 64);
        let k = i - right_first_pos;
        right_scores[k + 1] = right_scores[k] - (vn & bit != 0) as usize + (vp & bit != 0) as usize;
    }

    let Some(left_row) = bit_row(pm_s1, s1, s2, max, left_size - 1) else {
        return Err(max * 2);
    };
    let left_first_pos = left_row.first_block * 64;
    let left_last_pos = s1_len.min(left_row.last_block * 64 + 64);
    let mut left_score = left_row.prev_score;
    if s1_len >= left_first_pos + right_first_pos {
        let right_index = s1_len - left_first_pos - right_first_pos;
        if right_index < right_scores.len() {
            best_score = right_scores[right_index] + left_score;
            hpos.left_score = left_score;
            hpos.right_score = right_scores[right_index];
            hpos.s1_mid = left_first_pos;
        }
    }
    for i in left_first_pos..left_last_pos {
        let (vp, vn) = left_row.vecs[i / 64];
        let bit = 1u64 << (i % 64);
        left_score -= (vn & bit != 0) as usize;
        left_score += (vp & bit != 0) as usize;
        if s1_len < i + 1 + right_first_pos {
            continue;
        }
        let right_index = s1_len - i - 1 - right_first_pos;
        if right_index >= right_scores.len() {
            continue;
        }
        if right_scores[right_index] + left_score < best_score {
            best_score = right_scores[right_index] + left_score;
            hpos.left_score = left_score;
            hpos.right_score = right_scores[right_index];
            hpos.s1_mid = i + 1;
        }
    }
    if best_score == usize::MAX {
        // the two rows' bands do not meet: the band is narrower than the distance
        return Err(max * 2);
    }
    let found = hpos.left_score + hpos.right_score;
    if found > max {
        // RapidFuzz doubles here; any band holding the distance gives the same split (see
        // `align_hirschberg`), and `found`, a path's cost, is at least the distance
        Err(found)
    } else {
        Ok(hpos)
    }
}

fn common_prefix(a: &[u32], b: &[u32]) -> usize {
    a.iter().zip(b).take_while(|(x, y)| x == y).count()
}

fn common_suffix(a: &[u32], b: &[u32]) -> usize {
    a.iter().rev().zip(b.iter().rev()).take_while(|(x, y)| x == y).count()
}

/// The band a split starts from when `max` is only the length bound: the length
/// difference (every path crosses it) plus slack, widened by `find_hirschberg_pos`
/// until it holds the distance. A too-narrow band fails within the first rows where
/// the errors pass it, or yields a path's cost that the next try takes as its band.
fn first_split_band(s1: &[u32], s2: &[u32], max: usize) -> usize {
    (s1.len().abs_diff(s2.len()) + 256).min(max)
}

/// `max_is_distance`: `max` is the exact distance (a Hirschberg half), not only the length
/// bound of the whole problem. The split row is then computed in a band of the distance;
/// any band that holds every optimal path gives RapidFuzz's split (its first minimum lies
/// on an optimal path, and the cells of optimal paths keep their exact values), while
/// `max` itself still decides every choice RapidFuzz makes from it.
fn align_hirschberg(ops: &mut Vec<EditOp>, s1: &[u32], s2: &[u32], mut src_pos: usize, mut dest_pos: usize, editop_pos: usize, max: usize, max_is_distance: bool) {
    let p = common_prefix(s1, s2);
    let (s1, s2) = (&s1[p..], &s2[p..]);
    let q = common_suffix(s1, s2);
    let (s1, s2) = (&s1[..s1.len() - q], &s2[..s2.len() - q]);
    src_pos += p;
    dest_pos += p;

    let max = max.min(s1.len().max(s2.len()));
    let full_band = s1.len().min(2 * max + 1);
    let matrix_size = 2 * full_band * s2.len() / 8;
    if matrix_size < 1024 * 1024 || s1.len() < 65 || s2.len() < 10 {
        align(ops, s1, s2, max, src_pos, dest_pos, editop_pos);
    } else {
        let band = if max_is_distance { max } else { first_split_band(s1, s2, max) };
        let h = find_hirschberg_pos(s1, s2, band);
        ensure_len(ops, editop_pos + h.left_score + h.right_score);
        align_hirschberg(ops, &s1[..h.s1_mid], &s2[..h.s2_mid], src_pos, dest_pos, editop_pos, h.left_score, true);
        align_hirschberg(
            ops,
            &s1[h.s1_mid..],
            &s2[h.s2_mid..],
            src_pos + h.s1_mid,
            dest_pos + h.s2_mid,
            editop_pos + h.left_score,
            h.right_score,
            true,
        );
    }
}

/// The edit operations turning `s1` into `s2`, as RapidFuzz returns them.
pub fn editops(s1: &[u32], s2: &[u32]) -> Vec<EditOp> {
    let mut ops = Vec::new();
    let cutoff = s1.len().max(s2.len());
    align_hirschberg(&mut ops, s1, s2, 0, 0, 0, cutoff, false);
    ops
}

/// RapidFuzz's own schedule: the first split computed over the whole length bound.
#[cfg(test)]
fn editops_length_band(s1: &[u32], s2: &[u32]) -> Vec<EditOp> {
    let mut ops = Vec::new();
    align_hirschberg(&mut ops, s1, s2, 0, 0, 0, s1.len().max(s2.len()), true);
    ops
}

/// An opcode block, as `rapidfuzz` `Opcodes` (and jiwer's `AlignmentChunk`).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum OpTag {
    Equal,
    Replace,
    Insert,
    Delete,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Opcode {
    pub tag: OpTag,
    pub src_start: usize,
    pub src_end: usize,
    pub dest_start: usize,
    pub dest_end: usize,
}

/// Group edit operations into opcode blocks (RapidFuzz `Opcodes(const Editops&)`).
pub fn opcodes(ops: &[EditOp], src_len: usize, dest_len: usize) -> Vec<Opcode> {
    let mut out = Vec::new();
    let (mut sp, mut dp) = (0usize, 0usize);
    let mut i = 0;
    while i < ops.len() {
        if sp < ops[i].src_pos || dp < ops[i].dest_pos {
            out.push(Opcode { tag: OpTag::Equal, src_start: sp, src_end: ops[i].src_pos, dest_start: dp, dest_end: ops[i].dest_pos });
            sp = ops[i].src_pos;
            dp = ops[i].dest_pos;
        }
        let (sb, db) = (sp, dp);
        let kind = ops[i].kind;
        loop {
            match kind {
                EditKind::Replace => {
                    sp += 1;
                    dp += 1;
                }
                EditKind::Insert => dp += 1,
                EditKind::Delete => sp += 1,
            }
            i += 1;
            if !(i < ops.len() && ops[i].kind == kind && sp == ops[i].src_pos && dp == ops[i].dest_pos) {
                break;
            }
        }
        let tag = match kind {
            EditKind::Replace => OpTag::Replace,
            EditKind::Insert => OpTag::Insert,
            EditKind::Delete => OpTag::Delete,
        };
        out.push(Opcode { tag, src_start: sb, src_end: sp, dest_start: db, dest_end: dp });
    }
    if sp < src_len || dp < dest_len {
        out.push(Opcode { tag: OpTag::Equal, src_start: sp, src_end: src_len, dest_start: dp, dest_end: dest_len });
    }
    out
}

/// `[hits, substitutions, deletions, insertions]` of the alignment RapidFuzz picks.
pub fn hsdi(s1: &[u32], s2: &[u32]) -> [u64; 4] {
    let ops = editops(s1, s2);
    let (mut s, mut d, mut i) = (0u64, 0u64, 0u64);
    for op in &ops {
        match op.kind {
            EditKind::Replace => s += 1,
            EditKind::Delete => d += 1,
            EditKind::Insert => i += 1,
        }
    }
    [s1.len() as u64 - s - d, s, d, i]
}

#[cfg(test)]
mod tests {
    use super::*;

    fn plain_distance(a: &[u32], b: &[u32]) -> usize {
        let mut prev: Vec<usize> = (0..=b.len()).collect();
        for i in 1..=a.len() {
            let mut cur = vec![i; b.len() + 1];
            for j in 1..=b.len() {
                cur[j] = (prev[j] + 1).min(cur[j - 1] + 1).min(prev[j - 1] + (a[i - 1] != b[j - 1]) as usize);
            }
            prev = cur;
        }
        prev[b.len()]
    }

    fn lcg(seed: &mut u64) -> u32 {
        *seed = seed.wrapping_mul(6364136223846793005).wrapping_add(1442695040888963407);
        (*seed >> 33) as u32
    }

    #[test]
    fn swap_prefers_insert_hit_delete() {
        // ref "a b", hyp "b a": jiwer reports I, H, D (not S, S).
        assert_eq!(hsdi(&[0, 1], &[1, 0]), [1, 0, 1, 1]);
    }

    #[test]
    fn distance_is_optimal_on_every_path() {
        let mut seed = 7u64;
        for round in 0..300 {
            let la = (lcg(&mut seed) % 300) as usize;
            let lb = (lcg(&mut seed) % 300) as usize;
            let alpha = 2 + lcg(&mut seed) % if round % 2 == 0 { 4 } else { 50 };
            let a: Vec<u32> = (0..la).map(|_| lcg(&mut seed) % alpha).collect();
            let b: Vec<u32> = (0..lb).map(|_| lcg(&mut seed) % alpha).collect();
            let ops = editops(&a, &b);
            assert_eq!(ops.len(), plain_distance(&a, &b), "round {round}");
            // Replaying the opcodes must turn a into b.
            let mut out = Vec::new();
            for oc in opcodes(&ops, a.len(), b.len()) {
                match oc.tag {
                    OpTag::Equal => {
                        assert_eq!(&a[oc.src_start..oc.src_end], &b[oc.dest_start..oc.dest_end]);
                        out.extend_from_slice(&a[oc.src_start..oc.src_end]);
                    }
                    OpTag::Replace | OpTag::Insert => out.extend_from_slice(&b[oc.dest_start..oc.dest_end]),
                    OpTag::Delete => {}
                }
            }
            assert_eq!(out, b);
        }
    }

    #[test]
    fn hirschberg_path_is_optimal() {
        let mut seed = 11u64;
        let a: Vec<u32> = (0..3000).map(|_| lcg(&mut seed) % 30).collect();
        let mut b = a.clone();
        for _ in 0..600 {
            let k = (lcg(&mut seed) as usize) % b.len();
            match lcg(&mut seed) % 3 {
                0 => b[k] = lcg(&mut seed) % 30,
                1 => {
                    b.remove(k);
                }
                _ => b.insert(k, lcg(&mut seed) % 30),
            }
        }
        assert_eq!(editops(&a, &b).len(), plain_distance(&a, &b));
    }

    /// `b` from `a` with about `rate` of the positions edited (substitute, delete, insert).
    fn edited(a: &[u32], rate: u32, alpha: u32, seed: &mut u64) -> Vec<u32> {
        let mut b = Vec::with_capacity(a.len() + a.len() / 4);
        for &x in a {
            match lcg(seed) % 1000 {
                r if r < rate / 2 => b.push(lcg(seed) % alpha),
                r if r < rate * 3 / 4 => {}
                r if r < rate => {
                    b.push(x);
                    b.push(lcg(seed) % alpha);
                }
                _ => b.push(x),
            }
        }
        b
    }

    #[test]
    fn narrow_first_band_picks_rapidfuzz_alignment() {
        // long pairs that take the Hirschberg route: error rates 0.5-60 %, small and
        // large alphabets (repeated words), one side unrelated, a long insertion
        let mut seed = 5u64;
        let mut cases: Vec<(Vec<u32>, Vec<u32>)> = Vec::new();
        for (len, rate, alpha) in [(3000, 5, 2), (4000, 50, 4), (2500, 300, 30), (3000, 100, 3000), (5000, 600, 8), (2200, 200, 2)] {
            let a: Vec<u32> = (0..len).map(|_| lcg(&mut seed) % alpha).collect();
            let b = edited(&a, rate, alpha, &mut seed);
            cases.push((a, b));
        }
        let a: Vec<u32> = (0..3000).map(|_| lcg(&mut seed) % 5).collect();
        let unrelated: Vec<u32> = (0..2800).map(|_| 5 + lcg(&mut seed) % 5).collect();
        cases.push((a.clone(), unrelated));
        let mut padded = a.clone();
        padded.splice(1000..1000, (0..1500).map(|_| lcg(&mut seed) % 5));
        cases.push((a.clone(), padded.clone()));
        cases.push((padded, a.clone()));
        // a rotation: the halves' bands miss each other until the band is wide
        let mut rotated = a[1700..].to_vec();
        rotated.extend_from_slice(&a[..1700]);
        cases.push((a, rotated));
        for (k, (a, b)) in cases.iter().enumerate() {
            let fast = editops(a, b);
            assert_eq!(fast, editops_length_band(a, b), "case {k}");
            assert_eq!(fast, editops_length_band(a, b).into_iter().collect::<Vec<_>>());
            assert_eq!(editops(b, a), editops_length_band(b, a), "case {k} swapped");
        }
    }

    #[test]
    fn empty_inputs() {
        assert!(editops(&[], &[]).is_empty());
        assert!(opcodes(&[], 0, 0).is_empty());
        assert_eq!(hsdi(&[], &[1, 2]), [0, 0, 0, 2]);
        assert_eq!(hsdi(&[1, 2], &[]), [0, 0, 2, 0]);
    }
}
