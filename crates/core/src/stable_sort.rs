//! One small stable sort for every ordering the search makes.
//!
//! Each call of the standard library's sorts with its own comparison compiles into
//! its own copy of the sorting code (a few kilobytes each in the browser module).
//! Here the sorting itself is one function over incident-sized lists of positions
//! and the comparison is a `dyn` call, so the module carries it once. A bottom-up
//! merge sort: stable and `O(n log n)`, for lists of hits and terms.

use std::cmp::Ordering;

/// Sorts `v` by `cmp`, keeping equal elements in their order.
pub fn sort_by<T>(v: &mut Vec<T>, cmp: impl Fn(&T, &T) -> Ordering) {
    let order = permutation(v.len(), &|a, b| cmp(&v[a], &v[b]));
    let mut slots: Vec<Option<T>> = v.drain(..).map(Some).collect();
    v.extend(order.into_iter().filter_map(|i| slots[i].take()));
}

/// The positions `0..n` in the order `cmp` gives them.
fn permutation(n: usize, cmp: &dyn Fn(usize, usize) -> Ordering) -> Vec<usize> {
    let mut a: Vec<usize> = (0..n).collect();
    let mut b = vec![0; n];
    let mut width = 1;
    while width < n {
        let mut start = 0;
        while start < n {
            let mid = (start + width).min(n);
            let end = (start + 2 * width).min(n);
            let (mut l, mut r) = (start, mid);
            for slot in &mut b[start..end] {
                if l < mid && (r >= end || cmp(a[l], a[r]) != Ordering::Greater) {
                    *slot = a[l];
                    l += 1;
                } else {
                    *slot = a[r];
                    r += 1;
                }
            }
            start = end;
        }
        std::mem::swap(&mut a, &mut b);
        width *= 2;
    }
    a
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn sorts_stably_like_the_standard_sort() {
        let mut seed = 7u64;
        for n in [0, 1, 2, 3, 5, 8, 13, 64, 100, 1000] {
            let v: Vec<(u8, usize)> = (0..n)
                .map(|i| {
                    seed = seed.wrapping_mul(6364136223846793005).wrapping_add(1442695040888963407);
                    ((seed >> 60) as u8, i)
                })
                .collect();
            let mut ours = v.clone();
            sort_by(&mut ours, |a, b| a.0.cmp(&b.0));
            let mut std = v.clone();
            std.sort_by_key(|a| a.0);
            assert_eq!(ours, std, "n = {n}");
        }
        let mut words = vec!["캐시", "재시도", "DNS", "가"];
        sort_by(&mut words, |a, b| b.len().cmp(&a.len()));
        assert_eq!(words, ["재시도", "캐시", "DNS", "가"]);
    }
}
