package signals

import (
	"errors"
	"io/fs"
	"maps"
	"path/filepath"
	"slices"

	"github.com/crawlsignals/crawlsignals/evidence"
	"github.com/crawlsignals/crawlsignals/sites"
)

// Needs lists the batches whose evidence (WARCs and all) a build of the
// list over batchesDir must find on disk, given the manifests and derived
// files there: each site's newest batch, and every batch of a site whose
// history record is not current nor one batch short (another code,
// curation or list entry; no record). So a store fetched in part (every
// manifest, and the history records from a cache) can fetch the rest
// before the build; a fresh build (verify) needs the same.
func Needs(list *sites.List, batchesDir string, opt Options) ([]string, error) {
	batches, err := evidence.Batches(batchesDir)
	if err != nil && !errors.Is(err, fs.ErrNotExist) {
		return nil, err
	}
	bd := &builder{opt: opt, code: opt.Code, batchesDir: batchesDir, batches: batches,
		holds: map[string]map[string]bool{}, agents: knownAgents()}
	if bd.code == "" {
		bd.code = CodeVersion()
	}
	var errs []error
	for _, name := range batches {
		held, err := evidence.Sites(filepath.Join(batchesDir, name))
		errs = append(errs, err)
		bd.holds[name] = map[string]bool{}
		for _, h := range held {
			bd.holds[name][h] = true
		}
	}
	need := map[string]bool{}
	for i := range list.Sites {
		ls := &list.Sites[i]
		held := bd.held(ls)
		if len(held) == 0 {
			continue
		}
		cur, _ := LoadCuration(opt.Content, ls.Host) // one that does not load keys no record: all batches
		if _, _, _, state := bd.record(ls, cur, held); state == recordCurrent || state == recordOneShort {
			held = held[len(held)-1:]
		}
		for _, b := range held {
			need[b] = true
		}
	}
	return slices.Sorted(maps.Keys(need)), errors.Join(errs...)
}
