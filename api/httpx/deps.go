package httpx

import (
	"fmt"
	"reflect"
	"slices"
)

// Required returns an error naming the first field of the struct deps that
// is missing, for the constructor named constructor ("api.New"): a nil
// interface, function, pointer, map or slice, or an interface that holds a
// nil pointer. The fields named in optional may be missing.
func Required(constructor string, deps any, optional ...string) error {
	v := reflect.ValueOf(deps)
	for i := range v.NumField() {
		name := v.Type().Field(i).Name
		if !slices.Contains(optional, name) && missing(v.Field(i)) {
			return fmt.Errorf("%s: the dependency %s is missing", constructor, name)
		}
	}
	return nil
}

func missing(f reflect.Value) bool {
	switch f.Kind() {
	case reflect.Interface:
		return f.IsNil() || missing(f.Elem())
	case reflect.Func, reflect.Pointer, reflect.Map, reflect.Slice, reflect.Chan:
		return f.IsNil()
	}
	return false
}
