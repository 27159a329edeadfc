package main

// convert: turns the JSON bench/bytes-server.ts serves into the Kubernetes protobuf encoding of the same Pods,
// as kube-apiserver would send them to a client that asks for application/vnd.kubernetes.protobuf:
//   - list.json (a PodList)                  → list.pb: "k8s\0" + runtime.Unknown{TypeMeta, Raw: PodList}
//   - watch.jsonl, initial.jsonl (watch lines) → watch.pb, initial.pb: frames of a 4-byte big-endian length
//     and a metav1.WatchEvent whose Object.Raw is the Pod encoded as above (";stream=watch").
// Every object is decoded from JSON into corev1.Pod and must encode back to the JSON it came from, so the
// protobuf peer gets the very objects the JSON peers get; a difference stops the conversion.

import (
	"bufio"
	"bytes"
	"encoding/binary"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"reflect"

	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/apimachinery/pkg/runtime/schema"
	"k8s.io/apimachinery/pkg/runtime/serializer"
)

type podCodec struct {
	decode  runtime.Decoder
	encodeP runtime.Encoder
	encodeJ runtime.Encoder
}

func newPodCodec() podCodec {
	s := runtime.NewScheme()
	_ = corev1.AddToScheme(s)
	metav1.AddToGroupVersion(s, schema.GroupVersion{Version: "v1"})
	cf := serializer.NewCodecFactory(s)
	var proto, js runtime.Serializer
	for _, info := range cf.SupportedMediaTypes() {
		switch info.MediaType {
		case runtime.ContentTypeProtobuf:
			proto = info.Serializer
		case runtime.ContentTypeJSON:
			js = info.Serializer
		}
	}
	return podCodec{
		decode:  cf.UniversalDeserializer(),
		encodeP: cf.EncoderForVersion(proto, corev1.SchemeGroupVersion),
		encodeJ: cf.EncoderForVersion(js, corev1.SchemeGroupVersion),
	}
}

// object decodes JSON into its typed form, checks it encodes back to the same JSON, and returns its protobuf.
func (c podCodec) object(raw []byte) ([]byte, error) {
	obj, _, err := c.decode.Decode(raw, nil, nil)
	if err != nil {
		return nil, err
	}
	var back bytes.Buffer
	if err := c.encodeJ.Encode(obj, &back); err != nil {
		return nil, err
	}
	if err := sameJSON(raw, back.Bytes()); err != nil {
		return nil, err
	}
	var out bytes.Buffer
	if err := c.encodeP.Encode(obj, &out); err != nil {
		return nil, err
	}
	return out.Bytes(), nil
}

// sameJSON compares two JSON documents as values: nothing may be lost or changed; nulls and empty values
// may go or appear (the typed form omits some and always writes others).
func sameJSON(a, b []byte) error {
	var x, y any
	if err := json.Unmarshal(a, &x); err != nil {
		return err
	}
	if err := json.Unmarshal(b, &y); err != nil {
		return err
	}
	if d := firstDiff(dropNulls(x), dropNulls(y), ""); d != "" {
		return fmt.Errorf("the typed form does not encode back to the JSON it was decoded from, at %s", d)
	}
	return nil
}

func isEmpty(v any) bool {
	switch t := v.(type) {
	case map[string]any:
		return len(t) == 0
	case []any:
		return len(t) == 0
	case string:
		return t == ""
	case bool:
		return !t
	case float64:
		return t == 0
	}
	return v == nil
}

// firstDiff names the first place two decoded JSON values differ ("" when they are equal).
func firstDiff(x, y any, path string) string {
	switch a := x.(type) {
	case map[string]any:
		b, ok := y.(map[string]any)
		if !ok {
			return path
		}
		for k := range a {
			if _, ok := b[k]; !ok {
				if isEmpty(a[k]) {
					continue
				}
				return path + "." + k + " (dropped)"
			}
			if d := firstDiff(a[k], b[k], path+"."+k); d != "" {
				return d
			}
		}
		for k := range b {
			// Structs Go always writes (status.containerStatuses[].lastState: {}), as kube-apiserver does; and
			// above, empty lists it omits (env: []).
			if _, ok := a[k]; !ok && !isEmpty(b[k]) {
				return path + "." + k + " (added)"
			}
		}
		return ""
	case []any:
		b, ok := y.([]any)
		if !ok || len(a) != len(b) {
			return path
		}
		for i := range a {
			if d := firstDiff(a[i], b[i], fmt.Sprintf("%s[%d]", path, i)); d != "" {
				return d
			}
		}
		return ""
	default:
		if !reflect.DeepEqual(x, y) {
			return fmt.Sprintf("%s (%v vs %v)", path, x, y)
		}
		return ""
	}
}

func dropNulls(v any) any {
	switch t := v.(type) {
	case map[string]any:
		for k, e := range t {
			if e == nil {
				delete(t, k)
			} else {
				t[k] = dropNulls(e)
			}
		}
	case []any:
		for i, e := range t {
			t[i] = dropNulls(e)
		}
	}
	return v
}

func convertList(c podCodec, in, out string) error {
	raw, err := os.ReadFile(in)
	if err != nil {
		return err
	}
	obj, _, err := c.decode.Decode(raw, nil, nil)
	if err != nil {
		return err
	}
	list, ok := obj.(*corev1.PodList)
	if !ok {
		return fmt.Errorf("%s holds a %T, not a PodList", in, obj)
	}
	var back bytes.Buffer
	if err := c.encodeJ.Encode(list, &back); err != nil {
		return err
	}
	if err := sameJSON(raw, back.Bytes()); err != nil {
		return err
	}
	var b bytes.Buffer
	if err := c.encodeP.Encode(list, &b); err != nil {
		return err
	}
	return os.WriteFile(out, b.Bytes(), 0o644)
}

func convertWatch(c podCodec, in, out string) error {
	f, err := os.Open(in)
	if err != nil {
		return err
	}
	defer f.Close()
	var w bytes.Buffer
	sc := bufio.NewScanner(f)
	sc.Buffer(make([]byte, 1<<20), 16<<20)
	var hdr [4]byte
	for sc.Scan() {
		var line struct {
			Type   string          `json:"type"`
			Object json.RawMessage `json:"object"`
		}
		if err := json.Unmarshal(sc.Bytes(), &line); err != nil {
			return err
		}
		pb, err := c.object(line.Object)
		if err != nil {
			return err
		}
		ev := metav1.WatchEvent{Type: line.Type, Object: runtime.RawExtension{Raw: pb}}
		frame, err := ev.Marshal()
		if err != nil {
			return err
		}
		binary.BigEndian.PutUint32(hdr[:], uint32(len(frame)))
		w.Write(hdr[:])
		w.Write(frame)
	}
	if err := sc.Err(); err != nil {
		return err
	}
	return os.WriteFile(out, w.Bytes(), 0o644)
}

func benchConvert(dir string) {
	c := newPodCodec()
	steps := []func() error{
		func() error { return convertList(c, filepath.Join(dir, "list.json"), filepath.Join(dir, "list.pb")) },
		func() error {
			return convertWatch(c, filepath.Join(dir, "initial.jsonl"), filepath.Join(dir, "initial.pb"))
		},
		func() error {
			return convertWatch(c, filepath.Join(dir, "watch.jsonl"), filepath.Join(dir, "watch.pb"))
		},
	}
	for _, step := range steps {
		if err := step(); err != nil {
			fmt.Fprintf(os.Stderr, "convert %s: %v\n", dir, err)
			os.Exit(1)
		}
	}
}
