// Package latest only pins versions: see go.mod.
package latest

import _ "github.com/controller-scope/controller-scope/go"
