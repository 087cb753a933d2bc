package cuda

import (
	"errors"
	"fmt"
	"reflect"
	"strings"

	"github.com/semibench/semibench/impls/cuda/driver"
)

// A plan's buffers are bound to the fields of a caller's struct, one field
// of type driver.DevicePtr per buffer, named by the field's tag:
//
//	type n3Buffers struct {
//		C     driver.DevicePtr `buf:"lap.c"`
//		Order driver.DevicePtr `buf:"lap.fast.order,optional"`
//	}
//
// A field tagged optional may name a buffer the plan does not have (it is
// then left 0); every other tagged field must name one of the plan's
// buffers, and every buffer of the plan must be named by a field. Fields
// of embedded structs (untagged) are bound as the struct's own; untagged
// fields of other types are ignored. Tagged fields must be exported.

// bindTag is the struct tag that names a field's buffer.
const bindTag = "buf"

var devicePtrType = reflect.TypeFor[driver.DevicePtr]()

// boundField is one tagged field of a binding's struct.
type boundField struct {
	path     string // the field's name, through embedded structs
	name     string // the plan buffer it names
	optional bool
	v        reflect.Value // settable
}

// binding is dst's tagged fields, checked against a plan.
type binding struct {
	fields []boundField
	byName map[string]int // buffer name -> index in fields
}

// Bind checks, without a device, that dst's tagged fields and the buffers
// of p match one to one: dst is a non-nil pointer to a struct whose tagged
// fields are exported and of type driver.DevicePtr, no two fields name the
// same buffer, every buffer of p is named by a field, and every field not
// tagged optional names a buffer of p. The error names the plan, the field
// and the buffer name of every mismatch. Allocate and BindWith call it
// before allocating anything.
func Bind(p Plan, dst any) error {
	_, err := bind(p, dst)
	return err
}

// BindWith binds p to dst (checked as Bind does, before alloc is called):
// every tagged field of dst is set to 0, then each buffer of p, in plan
// order, is allocated by alloc and stored in the field that names it. It
// is for callers that allocate outside Device.Buffer's named, reused
// buffers; Allocate uses it with Device.Buffer.
func BindWith(p Plan, dst any, alloc func(Buffer) (driver.DevicePtr, error)) error {
	b, err := bind(p, dst)
	if err != nil {
		return err
	}
	for _, f := range b.fields {
		f.v.SetUint(0)
	}
	for _, buf := range p.Buffers {
		ptr, err := alloc(buf)
		if err != nil {
			return err
		}
		b.fields[b.byName[buf.Name]].v.SetUint(uint64(ptr))
	}
	return nil
}

// bind checks dst against p (see Bind) and returns its fields.
func bind(p Plan, dst any) (*binding, error) {
	rv := reflect.ValueOf(dst)
	if !rv.IsValid() || rv.Kind() != reflect.Pointer || rv.IsNil() || rv.Elem().Kind() != reflect.Struct {
		return nil, fmt.Errorf("binding plan %s: want a non-nil pointer to a struct of buffers, got %T", p.What, dst)
	}
	typ := rv.Elem().Type()
	b := &binding{byName: map[string]int{}}
	var errs []error
	var walk func(v reflect.Value, prefix string)
	walk = func(v reflect.Value, prefix string) {
		t := v.Type()
		for i := range t.NumField() {
			sf := t.Field(i)
			path := prefix + sf.Name
			tag, ok := sf.Tag.Lookup(bindTag)
			if !ok {
				if sf.Anonymous && sf.Type.Kind() == reflect.Struct {
					walk(v.Field(i), path+".")
				}
				continue
			}
			name, opt, _ := strings.Cut(tag, ",")
			switch {
			case name == "" || (opt != "" && opt != "optional"):
				errs = append(errs, fmt.Errorf("binding plan %s: field %s of %v has tag %s:%q, want %s:\"NAME\" or %s:\"NAME,optional\"",
					p.What, path, typ, bindTag, tag, bindTag, bindTag))
			case sf.Type != devicePtrType:
				errs = append(errs, fmt.Errorf("binding plan %s: field %s of %v (buffer %s) is a %v, want a %v",
					p.What, path, typ, name, sf.Type, devicePtrType))
			case !sf.IsExported():
				errs = append(errs, fmt.Errorf("binding plan %s: field %s of %v (buffer %s) is unexported, so it cannot be set",
					p.What, path, typ, name))
			default:
				if j, dup := b.byName[name]; dup {
					errs = append(errs, fmt.Errorf("binding plan %s: fields %s and %s of %v both name buffer %s",
						p.What, b.fields[j].path, path, typ, name))
					continue
				}
				b.byName[name] = len(b.fields)
				b.fields = append(b.fields, boundField{path: path, name: name, optional: opt == "optional", v: v.Field(i)})
			}
		}
	}
	walk(rv.Elem(), "")
	inPlan := make(map[string]bool, len(p.Buffers))
	names := make([]string, len(p.Buffers))
	for i, buf := range p.Buffers {
		names[i] = buf.Name
		if inPlan[buf.Name] {
			errs = append(errs, fmt.Errorf("binding plan %s: buffer %s appears twice in the plan", p.What, buf.Name))
			continue
		}
		inPlan[buf.Name] = true
		if _, ok := b.byName[buf.Name]; !ok {
			errs = append(errs, fmt.Errorf("binding plan %s: buffer %s has no field tagged %s:%q in %v",
				p.What, buf.Name, bindTag, buf.Name, typ))
		}
	}
	for _, f := range b.fields {
		if !f.optional && !inPlan[f.name] {
			errs = append(errs, fmt.Errorf("binding plan %s: field %s of %v names buffer %s, which the plan does not have (its buffers: %s)",
				p.What, f.path, typ, f.name, strings.Join(names, ", ")))
		}
	}
	if len(errs) > 0 {
		return nil, errors.Join(errs...)
	}
	return b, nil
}
