//! Exactly rounded floating-point summation (Shewchuk), identical to Python's
//! `math.fsum`. nltk sums log-precisions with `fsum`, and exact sums make float
//! statistics independent of how a corpus was sharded.

/// Partials of an exact sum; `value()` rounds them the way `math.fsum` does.
#[derive(Debug, Clone, Default)]
pub struct ExactSum {
    partials: Vec<f64>,
}

impl ExactSum {
    pub fn new() -> Self {
        Self::default()
    }

    pub fn add(&mut self, mut x: f64) {
        let mut i = 0;
        for j in 0..self.partials.len() {
            let mut y = self.partials[j];
            if x.abs() < y.abs() {
                std::mem::swap(&mut x, &mut y);
            }
            let hi = x + y;
            let lo = y - (hi - x);
            if lo != 0.0 {
                self.partials[i] = lo;
                i += 1;
            }
            x = hi;
        }
        self.partials.truncate(i);
        self.partials.push(x);
    }

    pub fn merge(&mut self, other: &ExactSum) {
        for &p in &other.partials {
            self.add(p);
        }
    }

    pub fn partials(&self) -> &[f64] {
        &self.partials
    }

    /// The correctly rounded sum (CPython's `math_fsum` final step, round-half-even).
    pub fn value(&self) -> f64 {
        let p = &self.partials;
        let mut n = p.len();
        if n == 0 {
            return 0.0;
        }
        n -= 1;
        let mut hi = p[n];
        let mut lo = 0.0;
        while n > 0 {
            let x = hi;
            n -= 1;
            let y = p[n];
            hi = x + y;
            let yr = hi - x;
            lo = y - yr;
            if lo != 0.0 {
                break;
            }
        }
        if n > 0 && ((lo < 0.0 && p[n - 1] < 0.0) || (lo > 0.0 && p[n - 1] > 0.0)) {
            let y = lo * 2.0;
            let x = hi + y;
            let yr = x - hi;
            if y == yr {
                hi = x;
            }
        }
        hi
    }
}

pub fn fsum<I: IntoIterator<Item = f64>>(values: I) -> f64 {
    let mut s = ExactSum::new();
    for v in values {
        s.add(v);
    }
    s.value()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn exact_where_naive_sum_is_not() {
        assert_eq!(fsum([0.1; 10]), 1.0);
        assert_eq!(fsum([1e100, 1.0, -1e100, 1e-100, 1e50, -1.0, -1e50]), 1e-100);
        assert_eq!(fsum([]), 0.0);
    }

    #[test]
    fn merge_is_order_independent() {
        let xs = [0.1, 0.2, 0.3, 1e16, -1e16, 0.7, 3.3];
        let mut a = ExactSum::new();
        let mut b = ExactSum::new();
        xs[..3].iter().for_each(|&x| a.add(x));
        xs[3..].iter().for_each(|&x| b.add(x));
        let mut ab = a.clone();
        ab.merge(&b);
        let mut ba = b.clone();
        ba.merge(&a);
        assert_eq!(ab.value(), ba.value());
        assert_eq!(ab.value(), fsum(xs));
    }
}
