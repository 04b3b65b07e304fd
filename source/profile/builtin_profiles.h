// The device profiles compiled into the library: test/data/profiles/<name>.json, embedded at
// build time by the genrule of source/profile/BUILD (builtin_profiles.cc).
#ifndef COOPSPV_SOURCE_PROFILE_BUILTIN_PROFILES_H_
#define COOPSPV_SOURCE_PROFILE_BUILTIN_PROFILES_H_

namespace coopspv::profile {

struct BuiltInProfileText {
  const char* name;  // The file's name without ".json"; nullptr ends the list.
  const char* json;
};
extern const BuiltInProfileText kBuiltInProfiles[];

}  // namespace coopspv::profile

#endif  // COOPSPV_SOURCE_PROFILE_BUILTIN_PROFILES_H_
