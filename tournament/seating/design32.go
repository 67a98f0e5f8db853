package seating

// gdd2to16 builds a resolvable 4-GDD of type 2^16: 32 players over 10
// rounds where every pair meets exactly once except 16 disjoint pairs (the
// groups) who never meet; the classic social golfer instance 8-4-10.
//
// Players are (l, x): four levels l, and x in E = GF(2)^3 coded 0..7, with
// XOR as addition; the groups are {(l, x), (l, x⊕7)}. Every round is
// invariant under translation by E, so it is enough that every difference
// between two levels, and every difference within a level other than 7,
// is covered exactly once:
//
//   - one round splits each level l into the two cosets of a subspace U_l,
//     covering the differences U_l\{0} within level l;
//   - three rounds pair the levels as the three perfect matchings of K4;
//     a pair (i, j) with translation t_ij = s_i⊕s_j (s = 0, 1, 2, 4) and
//     offset d_ij sits at tables {(i,x), (i,x⊕t), (j,x⊕d), (j,x⊕d⊕t)},
//     covering difference t_ij within both levels and the differences d_ij
//     and d_ij⊕t_ij between them; with U_l the complement of level l's
//     three translations and 7, every level's differences are covered;
//   - six rounds seat {(0,x), (1,x⊕a), (2,x⊕b), (3,x⊕c)} for rows (0,a,b,c)
//     whose pairwise differences between levels i and j cover exactly what
//     d_ij and d_ij⊕t_ij leave. The rows were found by a backtracking
//     search over E^3 (it needs t_ij = s_i⊕s_j: the XOR of all of E is 0)
//     and the tests check the whole design.
func gdd2to16() *design {
	s := [4]int{0, 1, 2, 4}
	d := [4][4]int{{0, 4, 5, 3}, {0, 0, 5, 3}, {0, 0, 0, 1}} // offsets d[i][j], i < j
	rows := [][4]int{{0, 0, 0, 0}, {0, 3, 2, 1}, {0, 6, 4, 2}, {0, 1, 6, 4}, {0, 2, 1, 5}, {0, 7, 3, 6}}
	pt := func(l, x int) int { return 8*l + x }
	des := &design{name: "resolvable 4-GDD of type 2^16", points: 32, group: []int{pt(0, 0), pt(0, 7)}}
	for _, r := range rows {
		var round [][]int
		for x := range 8 {
			round = append(round, []int{pt(0, x), pt(1, x^r[1]), pt(2, x^r[2]), pt(3, x^r[3])})
		}
		des.rounds = append(des.rounds, round)
	}
	for _, matching := range [3][2][2]int{{{0, 1}, {2, 3}}, {{0, 2}, {1, 3}}, {{0, 3}, {1, 2}}} {
		var round [][]int
		for _, ij := range matching {
			i, j := ij[0], ij[1]
			t, off := s[i]^s[j], d[i][j]
			for x := range 8 {
				if x < x^t {
					round = append(round, []int{pt(i, x), pt(i, x^t), pt(j, x^off), pt(j, x^off^t)})
				}
			}
		}
		des.rounds = append(des.rounds, round)
	}
	var round [][]int
	for l := range 4 {
		inU := make([]bool, 8) // U_l: 0 and the differences not otherwise covered at level l
		for x := range 8 {
			inU[x] = x != 7
		}
		for j := range 4 {
			if j != l {
				inU[s[l]^s[j]] = false
			}
		}
		seen := make([]bool, 8)
		for x := range 8 {
			if seen[x] {
				continue
			}
			var blk []int
			for u := range 8 {
				if inU[u] {
					blk = append(blk, pt(l, x^u))
					seen[x^u] = true
				}
			}
			round = append(round, blk)
		}
	}
	des.rounds = append(des.rounds, round)
	return des
}
