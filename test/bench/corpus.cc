#include "test/bench/corpus.h"

#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <sstream>

#include "source/text/assembler.h"

namespace coopspv::bench {

std::vector<CorpusModule> ReadCorpus(const std::filesystem::path& dir) {
  std::vector<CorpusModule> corpus;
  std::ifstream manifest(dir / "MANIFEST.tsv");
  std::string line;
  while (std::getline(manifest, line)) {
    std::istringstream fields(line);
    std::string file, bytes, version, env;
    std::getline(fields, file, '\t');
    std::getline(fields, bytes, '\t');
    std::getline(fields, version, '\t');
    std::getline(fields, env, '\t');
    if (file == "file" || file.empty()) continue;
    std::ifstream in(dir / file);
    std::stringstream text;
    text << in.rdbuf();
    CorpusModule m{file, {}, env.empty() ? "vulkan1.3" : env};
    Diagnostic d;
    if (!in || !text::Assemble(text.str(), {}, &m.words, &d)) {
      std::fprintf(stderr, "cannot assemble %s: %s\n", (dir / file).c_str(), d.ToString().c_str());
      std::exit(2);
    }
    corpus.push_back(std::move(m));
  }
  return corpus;
}

CorpusContexts::CorpusContexts(const std::vector<CorpusModule>& corpus) : corpus_(corpus) {
  for (const CorpusModule& m : corpus) {
    coopspv_context*& context = by_env_[m.env];
    if (context == nullptr) context = coopspv_context_create(m.env.c_str());
    if (context == nullptr) {
      std::fprintf(stderr, "%s: unknown target environment '%s'\n", m.file.c_str(), m.env.c_str());
      std::exit(2);
    }
    of_module_.push_back(context);
  }
}

CorpusContexts::~CorpusContexts() {
  for (auto& [env, context] : by_env_) coopspv_context_destroy(context);
}

bool CorpusContexts::ValidateAll(coopspv_result* result) const {
  for (size_t i = 0; i < corpus_.size(); ++i) {
    const std::vector<uint32_t>& words = corpus_[i].words;
    if (coopspv_validate_into(of_module_[i], words.data(), words.size(), result) != 0 ||
        !coopspv_result_valid(result)) {
      return false;
    }
  }
  return true;
}

}  // namespace coopspv::bench
