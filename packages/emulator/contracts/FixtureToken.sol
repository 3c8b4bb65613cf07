// SPDX-License-Identifier: MIT
pragma solidity 0.8.37;

/// A plain ERC-20 for the emulator's chain. Its code is set at a fixed address when the emulator
/// starts (no constructor runs), so name, symbol and decimals are constants in the code, and the
/// balances are written into storage: balanceOf is slot 0, totalSupply slot 1 (see storageLayout).
abstract contract FixtureToken {
    mapping(address => uint256) public balanceOf;
    uint256 public totalSupply;
    mapping(address => mapping(address => uint256)) public allowance;

    event Transfer(address indexed from, address indexed to, uint256 value);
    event Approval(address indexed owner, address indexed spender, uint256 value);

    function name() external pure virtual returns (string memory);
    function symbol() external pure virtual returns (string memory);
    function decimals() external pure virtual returns (uint8);

    function transfer(address to, uint256 value) external returns (bool) {
        _move(msg.sender, to, value);
        return true;
    }

    function approve(address spender, uint256 value) external returns (bool) {
        allowance[msg.sender][spender] = value;
        emit Approval(msg.sender, spender, value);
        return true;
    }

    function transferFrom(address from, address to, uint256 value) external returns (bool) {
        uint256 allowed = allowance[from][msg.sender];
        require(allowed >= value, "ERC20: insufficient allowance");
        if (allowed != type(uint256).max) allowance[from][msg.sender] = allowed - value;
        _move(from, to, value);
        return true;
    }

    function _move(address from, address to, uint256 value) private {
        require(to != address(0), "ERC20: transfer to the zero address");
        uint256 balance = balanceOf[from];
        require(balance >= value, "ERC20: transfer amount exceeds balance");
        balanceOf[from] = balance - value;
        balanceOf[to] += value;
        emit Transfer(from, to, value);
    }
}

/// 18 decimals, as most tokens.
contract BlockwireToken is FixtureToken {
    function name() external pure override returns (string memory) {
        return "Blockwire Token";
    }

    function symbol() external pure override returns (string memory) {
        return "BWT";
    }

    function decimals() external pure override returns (uint8) {
        return 18;
    }
}

/// 6 decimals, as USDC and USDT.
contract BlockwireDollar is FixtureToken {
    function name() external pure override returns (string memory) {
        return "Blockwire Dollar";
    }

    function symbol() external pure override returns (string memory) {
        return "BWUSD";
    }

    function decimals() external pure override returns (uint8) {
        return 6;
    }
}
