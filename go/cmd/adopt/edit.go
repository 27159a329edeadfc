package main

import (
	"bytes"
	"fmt"
	"go/format"
	"go/parser"
	"go/token"
	"sort"
)

// edit replaces src[start:end] with text (an insertion when start == end). adopt-go edits the text at the
// offsets the AST gives instead of printing a changed AST: printing moves comments and rewraps lines that
// were never touched, and a diff the user has to read should show only what adoption changes.
type edit struct {
	start, end int
	text       string
}

// apply returns src with the edits made, then gofmt'ed if src was gofmt'ed (a file kept in another style
// is left in it), and checks the result still parses.
func apply(name string, src []byte, edits []edit) ([]byte, error) {
	sort.SliceStable(edits, func(i, j int) bool { return edits[i].start < edits[j].start })
	var out bytes.Buffer
	at := 0
	for _, e := range edits {
		if e.start < at {
			return nil, fmt.Errorf("%s: overlapping edits at offset %d (a bug in adopt-go)", name, e.start)
		}
		out.Write(src[at:e.start])
		out.WriteString(e.text)
		at = e.end
	}
	out.Write(src[at:])
	res := out.Bytes()
	if formatted, err := format.Source(src); err == nil && bytes.Equal(formatted, src) {
		if res, err = format.Source(res); err != nil {
			return nil, fmt.Errorf("%s: the rewritten file does not parse (a bug in adopt-go): %v", name, err)
		}
	}
	if _, err := parser.ParseFile(token.NewFileSet(), name, res, parser.ParseComments); err != nil {
		return nil, fmt.Errorf("%s: the rewritten file does not parse (a bug in adopt-go): %v", name, err)
	}
	return res, nil
}
