// SPDX-License-Identifier: MIT
pragma solidity 0.8.37;

/// Looks like a token at a glance (a name, a balanceOf) but has no decimals() and no fallback:
/// asking it for decimals reverts with empty data, as it does on a real contract that is not ERC-20.
contract NotAToken {
    function name() external pure returns (string memory) {
        return "Not A Token";
    }

    function balanceOf(address) external pure returns (uint256) {
        return 0;
    }
}
