# Stamping precompiled solver instances from kernels/instances.cmake, for any
# backend: the CPU kernels and the CUDA and HIP plugins.
#
# tdls_stamp_instances(<BACKEND> <TYPES list var> <ORDERS list var> <TEMPLATE file.in> <PER_SOURCE k>
#                      <OUT_SOURCES var> <OUT_MACRO var> <OUT_STATIC_ORDERS var> [<EXTENSION>])
# For every type of the TYPES list, layout of TDLS_INSTANCE_LAYOUTS and
# order of the list, writes the line TDLS_<BACKEND>_INSTANTIATE(type, order,
# row_major) into sources stamped from TEMPLATE (@TDLS_INSTANTIATIONS@, k
# instances per source, in the current binary dir's generated/), appends
# " X(type, order, row_major)" to the X-macro body OUT_MACRO, and returns the
# nonzero orders, comma-separated, in OUT_STATIC_ORDERS. The sources end in
# EXTENSION (default cpp; cu and hip for the GPU plugins).
function(tdls_stamp_instances backend types_var orders_var template per_source out_sources out_macro out_static)
  set(extension cpp)
  if(ARGC GREATER 8)
    set(extension ${ARGV8})
  endif()
  foreach(type IN LISTS ${types_var})
    if(NOT type IN_LIST TDLS_INSTANCE_TYPES)
      message(FATAL_ERROR "${types_var} lists ${type}, which TDLS_INSTANCE_TYPES does not")
    endif()
  endforeach()
  string(TOUPPER ${backend} BACKEND)
  set(generated_dir ${CMAKE_CURRENT_BINARY_DIR}/generated)
  set(sources)
  set(macro "")
  foreach(type IN LISTS ${types_var})
    foreach(layout IN LISTS TDLS_INSTANCE_LAYOUTS)
      if(layout STREQUAL "row")
        set(row_major true)
      else()
        set(row_major false)
      endif()
      set(part 0)
      set(lines "")
      set(count 0)
      set(remaining ${${orders_var}})
      list(LENGTH remaining left)
      foreach(n IN LISTS ${orders_var})
        string(APPEND lines "TDLS_${BACKEND}_INSTANTIATE(${type}, ${n}, ${row_major})\n")
        string(APPEND macro " X(${type}, ${n}, ${row_major})")
        math(EXPR count "${count} + 1")
        math(EXPR left "${left} - 1")
        if(count EQUAL per_source OR left EQUAL 0)
          set(TDLS_TYPE ${type})
          set(TDLS_LAYOUT ${layout})
          set(TDLS_INSTANTIATIONS "${lines}")
          set(file ${generated_dir}/gesv_${backend}_${type}_${layout}_${part}.${extension})
          configure_file(${template} ${file} @ONLY)
          list(APPEND sources ${file})
          math(EXPR part "${part} + 1")
          set(lines "")
          set(count 0)
        endif()
      endforeach()
    endforeach()
  endforeach()
  set(static_orders ${${orders_var}})
  list(REMOVE_ITEM static_orders 0)
  list(JOIN static_orders ", " static_list)
  set(${out_sources} ${sources} PARENT_SCOPE)
  set(${out_macro} "${macro}" PARENT_SCOPE)
  set(${out_static} "${static_list}" PARENT_SCOPE)
endfunction()

# tdls_type_macro(<TYPES list var> <OUT var>): " X(type)" for each type of the
# list, the body of an X-macro of the generated header.
function(tdls_type_macro types_var out)
  set(macro "")
  foreach(type IN LISTS ${types_var})
    string(APPEND macro " X(${type})")
  endforeach()
  set(${out} "${macro}" PARENT_SCOPE)
endfunction()
