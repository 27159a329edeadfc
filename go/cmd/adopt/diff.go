package main

import (
	"fmt"
	"strings"
)

// maxDiffCells bounds the line-by-line table the diff is computed with (about 4 MB of ints): source files
// are far below it; a larger pair is summarised instead of diffed.
const maxDiffCells = 1 << 20

// unifiedDiff is `diff -u` of two versions of the file name, with three lines of context, or "" when they
// are equal. It is written here because the standard library has none and the tool must need nothing
// but Go.
func unifiedDiff(name string, before, after []byte) string {
	a, b := splitLines(string(before)), splitLines(string(after))
	if strings.Join(a, "") == strings.Join(b, "") {
		return ""
	}
	var out strings.Builder
	fmt.Fprintf(&out, "--- a/%s\n+++ b/%s\n", name, name)
	if (len(a)+1)*(len(b)+1) > maxDiffCells {
		fmt.Fprintf(&out, "@@ too large to show: %d lines before, %d after @@\n", len(a), len(b))
		return out.String()
	}
	ops := lineOps(a, b)
	const context = 3
	for i := 0; i < len(ops); {
		if ops[i].kind == ' ' {
			i++
			continue
		}
		// A hunk: from context lines before this change to context lines after the last change that is
		// no more than 2*context unchanged lines away.
		start := max(i-context, 0)
		end := i
		for j := i; j < len(ops); j++ {
			if ops[j].kind != ' ' {
				end = j
			} else if j-end > 2*context {
				break
			}
		}
		stop := min(end+context+1, len(ops))
		aLine, bLine := ops[start].a+1, ops[start].b+1
		aN, bN := 0, 0
		for _, o := range ops[start:stop] {
			if o.kind != '+' {
				aN++
			}
			if o.kind != '-' {
				bN++
			}
		}
		// As diff -u does, an empty side names the line before the hunk.
		if aN == 0 {
			aLine--
		}
		if bN == 0 {
			bLine--
		}
		fmt.Fprintf(&out, "@@ -%d,%d +%d,%d @@\n", aLine, aN, bLine, bN)
		for _, o := range ops[start:stop] {
			text := o.text
			if !strings.HasSuffix(text, "\n") {
				text += "\n\\ No newline at end of file\n"
			}
			out.WriteString(string(o.kind) + text)
		}
		i = stop
	}
	return out.String()
}

type lineOp struct {
	kind byte // ' ', '-' or '+'
	a, b int  // the line's index in before and after (the next line's, for a line not in that side)
	text string
}

// lineOps is a shortest edit script from a to b by longest common subsequence.
func lineOps(a, b []string) []lineOp {
	n, m := len(a), len(b)
	lcs := make([]int, (n+1)*(m+1))
	at := func(i, j int) *int { return &lcs[i*(m+1)+j] }
	for i := n - 1; i >= 0; i-- {
		for j := m - 1; j >= 0; j-- {
			if a[i] == b[j] {
				*at(i, j) = *at(i+1, j+1) + 1
			} else {
				*at(i, j) = max(*at(i+1, j), *at(i, j+1))
			}
		}
	}
	var ops []lineOp
	i, j := 0, 0
	for i < n || j < m {
		switch {
		case i < n && j < m && a[i] == b[j]:
			ops = append(ops, lineOp{' ', i, j, a[i]})
			i, j = i+1, j+1
		case i < n && (j == m || *at(i+1, j) >= *at(i, j+1)):
			// Removals before additions, as diff -u prints a changed line.
			ops = append(ops, lineOp{'-', i, j, a[i]})
			i++
		default:
			ops = append(ops, lineOp{'+', i, j, b[j]})
			j++
		}
	}
	return ops
}

func splitLines(s string) []string {
	if s == "" {
		return nil
	}
	lines := strings.SplitAfter(s, "\n")
	if lines[len(lines)-1] == "" {
		lines = lines[:len(lines)-1]
	}
	return lines
}
