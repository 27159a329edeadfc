package main

import (
	"fmt"
	"go/token"
	"sort"
	"strings"
)

// refusal is one place adopt-go will not rewrite, with why and what to do instead. Refusals are collected
// over the whole project before anything is written, so one run names every place that needs a hand.
type refusal struct {
	pos token.Position
	msg string
}

func (r refusal) String() string {
	if r.pos.Filename == "" {
		return r.msg
	}
	return fmt.Sprintf("%s:%d: %s", r.pos.Filename, r.pos.Line, r.msg)
}

// refused is the error Plan returns when any place is refused: nothing has been written.
type refused []refusal

func (r refused) Error() string {
	sort.SliceStable(r, func(i, j int) bool {
		if r[i].pos.Filename != r[j].pos.Filename {
			return r[i].pos.Filename < r[j].pos.Filename
		}
		return r[i].pos.Line < r[j].pos.Line
	})
	lines := make([]string, len(r))
	for i, x := range r {
		lines[i] = "  " + x.String()
	}
	return fmt.Sprintf("cannot adopt this project safely, nothing was changed:\n%s\n"+
		"Change these by hand (go/README.md, \"Adopt by hand\", shows each change), or end a line with the "+
		"comment // %s to leave the call on it as it is, then run adopt-go again.", strings.Join(lines, "\n"), skipMark)
}
