/* Stands in for the hooks.h of Rodinia's streamcluster (region-of-interest markers); empty. */
#pragma once
